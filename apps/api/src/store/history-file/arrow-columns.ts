import { type Batch, batchType, Column, type DataType, type Field } from '@uwdata/flechette';

// One-row Arrow columns over typed arrays (not copied), and views of a row's list values.

const NO_VALIDITY = new Uint8Array(0);

/** A one-row column of `type` over the given buffers (not copied); `isNull` makes its one value null. */
function oneRow(type: DataType, buffers: object, isNull = false): Column<unknown> {
  const Batch = batchType(type);
  const validity = isNull ? Uint8Array.of(0) : NO_VALIDITY;
  return new Column([new Batch({ length: 1, nullCount: isNull ? 1 : 0, type, validity, ...buffers })]);
}

/** A one-row column of a plain type; `isNull` makes its one value null. */
export function column(
  type: DataType,
  values: BigInt64Array | Float64Array | Uint32Array | Int8Array,
  isNull = false,
): Column<unknown> {
  return oneRow(type, { values }, isNull);
}

/** The child batch of a one-row list column of `type`, its values the given array (not copied). */
function listChild(type: DataType, values: ArrayLike<number>): unknown {
  const childType = (type as { children: Field[] }).children[0]?.type as DataType;
  const Child = batchType(childType);
  return new Child({ length: values.length, nullCount: 0, type: childType, validity: NO_VALIDITY, values });
}

/** A one-row column of a fixed-size list, its values the given array (not copied). */
export function listColumn(
  type: DataType,
  values: Uint16Array | Uint8Array | Int8Array | Uint32Array,
): Column<unknown> {
  return oneRow(type, { children: [listChild(type, values)] });
}

export type Values = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** A one-row column of a variable-size list, its values the given array (not copied). */
export function variableListColumn(type: DataType, values: Values): Column<unknown> {
  return oneRow(type, { offsets: Int32Array.of(0, values.length), children: [listChild(type, values)] });
}

/** A one-row UTF-8 column. */
export function utf8Column(type: DataType, text: string): Column<unknown> {
  const bytes = new TextEncoder().encode(text);
  return oneRow(type, { offsets: Int32Array.of(0, bytes.length), values: bytes });
}

/** Row `row` of a variable-size list batch, a view of its child's values. */
export function variableListValues(batch: Batch<unknown> | undefined, row: number): Values {
  const offsets = (batch as { offsets?: Int32Array } | undefined)?.offsets;
  const values = batch?.children[0]?.values as Values | undefined;
  if (!offsets || !values) throw new Error('a list column is missing');
  return values.subarray(offsets[row] as number, offsets[row + 1] as number);
}

/** Row `row` of a fixed-size list batch, a view of its child's values. */
export function listValues(batch: Batch<unknown> | undefined, row: number, size: number) {
  const values = batch?.children[0]?.values as Uint16Array | Uint8Array | Int8Array | Uint32Array | undefined;
  if (!values || values.length < (row + 1) * size) throw new Error('a list of the wrong length');
  return values.subarray(row * size, (row + 1) * size);
}
