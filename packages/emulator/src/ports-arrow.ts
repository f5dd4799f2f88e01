import { randomUUID } from 'node:crypto';
import {
  PORT_COUNTER_NAMES,
  PORT_GAUGE_NAMES,
  PORTS_ARROW_FIXED_COLUMNS,
  PORTS_ARROW_LINK_UP,
  type PortCountersDocument,
  type PortEntry,
  type PortsArrowFixedColumn,
} from '@fabscope/contracts/ports';
import {
  type Column,
  columnFromArray,
  type DataType,
  dictionary,
  dictionaryContext,
  float64,
  tableFromColumns,
  tableToIPC,
  uint8,
  uint16,
  uint32,
  uint64,
  utf8,
} from '@uwdata/flechette';

// `GET /v1/ports?format=arrow`: fixed columns encoded once, so a scrape fills only counters and states.

const GAUGES = new Set<string>(PORT_GAUGE_NAMES);

/** A port's fields that never change between answers. */
type FixedFields = Omit<PortEntry, 'counters' | 'linkState'>;

export class PortsArrowEncoder {
  private readonly fixed: [string, Column<unknown>][];
  private readonly rows: number;
  /** Names this encoder's fixed columns, so a reader may keep what it decoded under the same name. */
  private readonly fixedName = randomUUID();

  /** `entries`: the ports' fixed fields, in document order. */
  constructor(entries: readonly FixedFields[]) {
    this.rows = entries.length;
    // One dictionary context for every dictionary column: each gets an id of its own.
    const dicts = dictionaryContext();
    const column = <T>(values: T[], type: DataType) =>
      columnFromArray(values, type, {}, dicts) as Column<unknown>;
    // A dictionary type per column: the type object carries the dictionary's id.
    const text = () => dictionary(utf8());
    const strings = (pick: (e: FixedFields) => string | null, type: DataType) =>
      column(entries.map(pick), type);
    const make: Record<PortsArrowFixedColumn, () => Column<unknown>> = {
      nodeGuid: () => strings((e) => e.nodeGuid, utf8()),
      nodeName: () => strings((e) => e.nodeName, utf8()),
      nodeType: () => strings((e) => e.nodeType, text()),
      portNumber: () => column(Uint16Array.from(entries, (e) => e.portNumber) as never, uint16()),
      lid: () => column(Uint32Array.from(entries, (e) => e.lid) as never, uint32()),
      rateGbps: () => column(Float64Array.from(entries, (e) => e.rateGbps) as never, float64()),
      fabricType: () => strings((e) => e.fabricType, text()),
      remoteNodeGuid: () => strings((e) => e.remote?.nodeGuid ?? null, utf8()),
      remoteNodeName: () => strings((e) => e.remote?.nodeName ?? null, utf8()),
      remotePortNumber: () =>
        column(
          entries.map((e) => e.remote?.portNumber ?? null),
          uint16(),
        ),
    };
    // In the contract's order, which is also the order the dictionaries get their ids in.
    this.fixed = PORTS_ARROW_FIXED_COLUMNS.map((name) => [name, make[name]()]);
  }

  /** One scrape; `present[k]` is null for every port, undefined for none (no column). */
  encode(
    meta: Omit<PortCountersDocument, 'ports'>,
    linkUp: Int8Array,
    counters: readonly BigUint64Array[],
    present: readonly (Uint8Array | null | undefined)[],
  ): Uint8Array {
    const columns: [string, Column<unknown>][] = [
      ...this.fixed,
      // Typed arrays without a type given are taken as they are (a builder would copy value by value).
      [PORTS_ARROW_LINK_UP, columnFromArray(linkUp) as Column<unknown>],
    ];
    PORT_COUNTER_NAMES.forEach((name, k) => {
      const values = counters[k] as BigUint64Array;
      const has = present[k];
      if (has === undefined) return;
      // Gauges are small numbers, written as uint8.
      const gauge = GAUGES.has(name);
      if (has === null) {
        columns.push([
          name,
          columnFromArray(gauge ? Uint8Array.from(values, Number) : values) as Column<unknown>,
        ]);
        return;
      }
      // Ports of two fabrics (a router's Ethernet NICs): null where a port's fabric lacks it.
      const sparse: (number | bigint | null)[] = new Array(this.rows);
      for (let i = 0; i < this.rows; i++)
        sparse[i] = has[i] ? (gauge ? Number(values[i]) : (values[i] as bigint)) : null;
      columns.push([name, columnFromArray(sparse, gauge ? uint8() : uint64()) as Column<unknown>]);
    });
    const table = tableFromColumns(columns);
    table.schema.metadata = new Map([
      ['fabric', meta.fabric],
      ['fabricType', meta.fabricType],
      ['timeMs', String(meta.timeMs)],
      ['dataUnitBytes', String(meta.dataUnitBytes)],
      ['fixed', this.fixedName],
    ]);
    return tableToIPC(table, { format: 'stream' }) as Uint8Array;
  }
}
