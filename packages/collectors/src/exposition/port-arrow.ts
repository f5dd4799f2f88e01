import { randomUUID } from 'node:crypto';
import { PORT_ARROW_READ_AT_COLUMN } from '@fabscope/contracts/metrics';
import {
  type Column,
  columnFromArray,
  type DataType,
  dictionary,
  dictionaryContext,
  float64,
  tableFromColumns,
  tableToIPC,
  uint16,
  utf8,
} from '@uwdata/flechette';
import type { PortSample } from '../fabric/port-sample.ts';
import { PORT_FAMILIES, type PortFamily, type PortLabels } from './port-exposition.ts';

/** The port families asked for, when all are keyed by the port alone (Arrow can carry them); else null. */
export function arrowFamilies(names: ReadonlySet<string> | undefined): PortFamily[] | null {
  if (!names || names.size === 0) return null;
  const families: PortFamily[] = [];
  for (const name of names) {
    const family = PORT_FAMILIES.find((f) => f.name === name);
    if (!family || family.labelledBy !== undefined) return null;
    families.push(family);
  }
  return families;
}

/**
 * `GET /metrics?name[]=…` as one Arrow IPC stream (docs/metrics.md): a row per port, the key labels,
 * then a Float64 column per family (NaN where the text has no series).
 */
export class PortArrowEncoder {
  private keyColumns: [string, Column<unknown>][] = [];
  /** The kept key columns' values per row: node GUID, port number, node type, far end's type. */
  private kept: { guids: string[]; ports: Uint16Array; types: string[]; remoteTypes: string[] } | null = null;
  /** `keys` in the metadata: a reader that kept the rows for the same name skips the keys. */
  private readonly instance = randomUUID();
  private keysVersion = 0;

  encode(labels: PortLabels, families: readonly PortFamily[]): Uint8Array {
    const { ports, snapshot } = labels;
    const n = ports.length;
    const columns: [string, Column<unknown>][] = [...this.keysOf(labels)];
    for (const family of families) {
      const values = new Float64Array(n);
      const { value } = family;
      for (let i = 0; i < n; i++) {
        const v = value(ports[i] as PortSample);
        values[i] = Number.isFinite(v) ? v : Number.NaN;
      }
      columns.push([family.name, typedColumn(values, float64())]);
    }
    const portReadAt = ownReadTimes(ports);
    if (portReadAt !== null) columns.push([PORT_ARROW_READ_AT_COLUMN, typedColumn(portReadAt, float64())]);
    const table = tableFromColumns(columns);
    const readAt = snapshot.countersReadAtMs;
    table.schema.metadata = new Map([
      ['fabric', snapshot.fabric],
      ['ports', String(n)],
      ...(readAt === undefined ? [] : [['countersReadAtMs', String(readAt)] as const]),
      ['keys', `${this.instance}/${this.keysVersion}`],
    ]);
    return tableToIPC(table, { format: 'stream' }) as Uint8Array;
  }

  /** The key columns of `labels`' ports: those of the scrape before when its ports were the same. */
  private keysOf(labels: PortLabels): [string, Column<unknown>][] {
    const { ports } = labels;
    const remoteType = (p: PortSample) => (p.remote ? (labels.typeOf.get(p.remote.nodeGuid) ?? '') : '');
    if (this.sameKeys(ports, remoteType)) return this.keyColumns;
    const kept = {
      guids: ports.map((p) => p.nodeGuid),
      ports: Uint16Array.from(ports, (p) => p.portNumber),
      types: ports.map((p) => p.nodeType as string),
      remoteTypes: ports.map(remoteType),
    };
    const dicts = dictionaryContext();
    const text = (values: string[]) =>
      columnFromArray(values, dictionary(utf8()), {}, dicts) as Column<unknown>;
    this.keyColumns = [
      ['node_guid', text(kept.guids)],
      ['port', typedColumn(kept.ports, uint16())],
      ['node_type', text(kept.types)],
      // As the text's label: absent ("" here) when uncabled or the far end's type is unknown.
      ['remote_node_type', text(kept.remoteTypes)],
    ];
    this.kept = kept;
    this.keysVersion++;
    return this.keyColumns;
  }

  /** Whether `ports` have the keys of the columns kept, row for row (no string made per row). */
  private sameKeys(ports: readonly PortSample[], remoteType: (p: PortSample) => string): boolean {
    const kept = this.kept;
    if (kept === null || kept.guids.length !== ports.length) return false;
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i] as PortSample;
      if (
        p.nodeGuid !== kept.guids[i] ||
        p.portNumber !== kept.ports[i] ||
        p.nodeType !== kept.types[i] ||
        remoteType(p) !== kept.remoteTypes[i]
      )
        return false;
    }
    return true;
  }
}

/**
 * Each port's own read instant (ms, rounded as the text's timestamps; NaN: the answer's stamp), or null
 * when no port has one (the column is left out, as an older collector leaves it).
 */
function ownReadTimes(ports: readonly PortSample[]): Float64Array | null {
  if (!ports.some((p) => p.countersReadAtMs !== undefined)) return null;
  return Float64Array.from(ports, (p) =>
    p.countersReadAtMs === undefined ? Number.NaN : Math.round(p.countersReadAtMs),
  );
}

/** A typed array as a column without a copy (flechette copies when given a type; an empty one needs it). */
function typedColumn(values: Float64Array | Uint16Array, type: DataType): Column<unknown> {
  return (
    values.length > 0 ? columnFromArray(values) : columnFromArray(values as never, type)
  ) as Column<unknown>;
}
