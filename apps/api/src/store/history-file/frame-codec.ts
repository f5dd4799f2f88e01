import {
  type Batch,
  batchType,
  Column,
  type DataType,
  Endianness,
  type Field,
  field,
  fixedSizeList,
  float64,
  int8,
  type Schema,
  Table,
  TimeUnit,
  tableFromIPC,
  tableToIPC,
  timestamp,
  uint8,
  uint16,
  uint32,
  Version,
} from '@uwdata/flechette';
import type { FabricSummary } from '../../lib/utilization.ts';
import { type FrameColumns, LOAD_SCALE, LOAD_UNKNOWN, WAIT_SCALE, WAIT_UNKNOWN } from '../link-history.ts';
import { MESSAGE_RECORD_BATCH, MESSAGE_SCHEMA, wholeMessages } from './arrow-messages.ts';
import type { FabricIdentity } from './fabric-identity.ts';

/** Version of the on-disk form (docs/history.md); another version is not read. */
export const HISTORY_FORMAT_VERSION = '1';

/** One instant of the history as it is kept on disk: the ring's frame and its summary. */
export interface StoredFrame {
  timeMs: number;
  columns: FrameColumns;
  summary: FabricSummary | undefined;
}

const BUCKETS = 10;

/**
 * One instant ↔ one Arrow IPC record batch of one row (docs/history.md): the per-direction values
 * are fixed-size lists in channel order (link direction i of /links is element i), encoded as the
 * in-memory ring keeps them (link-history.ts), so writing copies no value and reading copies each
 * list into the ring once. The schema says which fabric the values belong to.
 */
export class FrameCodec {
  readonly schema: Schema;
  private readonly channels: number;

  constructor(readonly identity: FabricIdentity) {
    const n = identity.channels;
    this.channels = n;
    const list = (item: DataType, size: number): DataType => fixedSizeList(field('item', item, false), size);
    const described = (name: string, type: DataType, meaning: string, nullable = false): Field =>
      field(name, type, nullable, new Map([['fabscope.meaning', meaning]]));
    this.schema = {
      version: Version.V5,
      endianness: Endianness.Little,
      fields: [
        described('time', timestamp(TimeUnit.MILLISECOND, 'UTC'), 'sample time of the scrape'),
        described(
          'load',
          list(uint16(), n),
          `per link direction: bytes/s ÷ capacity × ${LOAD_SCALE} (0..2 × capacity); ${LOAD_UNKNOWN} unknown`,
        ),
        described(
          'wait',
          list(uint8(), n),
          `per link direction: XmitWait share of time × ${WAIT_SCALE}; ${WAIT_UNKNOWN} unknown`,
        ),
        described('link_up', list(int8(), n), 'per link direction: 1 up, 0 down, -1 unknown'),
        described(
          'host_transmit_bytes_per_second',
          float64(),
          'what hosts send, bytes/s (null: unknown)',
          true,
        ),
        described('histogram_isl', list(uint32(), BUCKETS), 'ISL directions per 10 % utilization bucket'),
        described('histogram_host', list(uint32(), BUCKETS), 'host-link directions per 10 % bucket'),
        described('stale_links', uint32(), 'link directions of unknown utilization'),
      ],
      metadata: new Map([
        ['fabscope.history', HISTORY_FORMAT_VERSION],
        ['fabscope.fabric', identity.hash],
        ['fabscope.fabric_name', identity.name],
        ['fabscope.directions', String(n)],
      ]),
    };
  }

  /**
   * The frame as Arrow IPC stream messages: the schema (written once, at the head of a segment)
   * and the frame's record batch.
   */
  encode(frame: StoredFrame): { schema: Uint8Array; batch: Uint8Array } {
    const { columns, summary } = frame;
    if (columns.load.length !== this.channels) {
      throw new RangeError(`expected ${this.channels} link directions, got ${columns.load.length}`);
    }
    const [time, load, wait, up, host, isl, hostBuckets, stale] = this.schema.fields.map((f) => f.type) as [
      DataType,
      DataType,
      DataType,
      DataType,
      DataType,
      DataType,
      DataType,
      DataType,
    ];
    const hostTotal = summary?.hostTransmitBytesPerSecond ?? null;
    const table = new Table(this.schema, [
      column(time, BigInt64Array.of(BigInt(Math.round(frame.timeMs)))),
      listColumn(load, columns.load),
      listColumn(wait, columns.wait),
      listColumn(up, columns.up),
      column(host, Float64Array.of(hostTotal ?? 0), hostTotal === null),
      listColumn(isl, Uint32Array.from(summary?.histogram.isl ?? new Array(BUCKETS).fill(0))),
      listColumn(hostBuckets, Uint32Array.from(summary?.histogram.host ?? new Array(BUCKETS).fill(0))),
      column(stale, Uint32Array.of(summary?.staleLinks ?? this.channels)),
    ]);
    const bytes = tableToIPC(table, { format: 'stream' });
    if (!bytes) throw new Error('Arrow IPC encoder gave no bytes');
    const [schema, batch] = wholeMessages(bytes).messages;
    if (schema?.type !== MESSAGE_SCHEMA || batch?.type !== MESSAGE_RECORD_BATCH) {
      throw new Error('Arrow IPC encoder gave an unexpected stream');
    }
    return {
      schema: bytes.subarray(schema.start, schema.end),
      batch: bytes.subarray(batch.start, batch.end),
    };
  }

  /**
   * The frames of a segment (an Arrow IPC stream) up to its last whole message. Throws when the
   * stream is not this fabric's history (another fabric, version or layout).
   */
  decode(bytes: Uint8Array): { frames: StoredFrame[]; wholeBytes: number } {
    const { messages, end } = wholeMessages(bytes);
    if (messages[0]?.type !== MESSAGE_SCHEMA) throw new Error('no Arrow schema at the head');
    const table = tableFromIPC(bytes.subarray(0, end));
    const meta = table.schema.metadata;
    if (meta?.get('fabscope.history') !== HISTORY_FORMAT_VERSION)
      throw new Error(`not fabscope history version ${HISTORY_FORMAT_VERSION}`);
    if (
      meta.get('fabscope.fabric') !== this.identity.hash ||
      meta.get('fabscope.directions') !== String(this.channels)
    )
      throw new Error(`the history of another fabric (${meta.get('fabscope.fabric_name') ?? 'unnamed'})`);
    const batches = (name: string) => table.getChild(name).data as readonly Batch<unknown>[];
    const [time, load, wait, up, host, isl, hostBuckets, stale] = [
      'time',
      'load',
      'wait',
      'link_up',
      'host_transmit_bytes_per_second',
      'histogram_isl',
      'histogram_host',
      'stale_links',
    ].map(batches) as Batch<unknown>[][] as [
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
      Batch<unknown>[],
    ];
    const frames: StoredFrame[] = [];
    time.forEach((timeBatch, b) => {
      for (let row = 0; row < timeBatch.length; row++) {
        const timeMs = Number(timeBatch.at(row));
        const hostTotal = host[b]?.at(row) as number | null;
        frames.push({
          timeMs,
          columns: {
            load: listValues(load[b], row, this.channels) as Uint16Array,
            wait: listValues(wait[b], row, this.channels) as Uint8Array,
            up: listValues(up[b], row, this.channels) as Int8Array,
          },
          summary: {
            time: new Date(timeMs).toISOString(),
            hostTransmitBytesPerSecond: hostTotal ?? null,
            histogram: {
              isl: Array.from(listValues(isl[b], row, BUCKETS)),
              host: Array.from(listValues(hostBuckets[b], row, BUCKETS)),
            },
            staleLinks: Number(stale[b]?.at(row)),
          },
        });
      }
    });
    return { frames, wholeBytes: end };
  }
}

const NO_VALIDITY = new Uint8Array(0);

/** A one-row column of a plain type; `isNull` makes its one value null. */
function column(
  type: DataType,
  values: BigInt64Array | Float64Array | Uint32Array,
  isNull = false,
): Column<unknown> {
  const Batch = batchType(type);
  return new Column([
    new Batch({
      length: 1,
      nullCount: isNull ? 1 : 0,
      type,
      validity: isNull ? Uint8Array.of(0) : NO_VALIDITY,
      values,
    }),
  ]);
}

/** A one-row column of a fixed-size list, its values the given array (not copied). */
function listColumn(
  type: DataType,
  values: Uint16Array | Uint8Array | Int8Array | Uint32Array,
): Column<unknown> {
  const childType = (type as { children: Field[] }).children[0]?.type as DataType;
  const Child = batchType(childType);
  const List = batchType(type);
  const child = new Child({
    length: values.length,
    nullCount: 0,
    type: childType,
    validity: NO_VALIDITY,
    values,
  });
  return new Column([new List({ length: 1, nullCount: 0, type, validity: NO_VALIDITY, children: [child] })]);
}

/** Row `row` of a fixed-size list batch, a view of its child's values. */
function listValues(batch: Batch<unknown> | undefined, row: number, size: number) {
  const values = batch?.children[0]?.values as Uint16Array | Uint8Array | Int8Array | Uint32Array | undefined;
  if (!values || values.length < (row + 1) * size) throw new Error('a list of the wrong length');
  return values.subarray(row * size, (row + 1) * size);
}
