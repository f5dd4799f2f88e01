import { PORT_ARROW_READ_AT_COLUMN } from '@fabscope/contracts/metrics';
import { tableFromIPC } from '@uwdata/flechette';

/** The end-of-stream marker every complete Arrow IPC stream ends with (continuation, length 0). */
const EOS = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];

/**
 * A collector's `/metrics` in columns (docs/metrics.md, "The Arrow form"): a row per port keyed by `node_guid`, `port`,
 * a Float64 column per family the scrape named, NaN where the exposition text would leave the series out.
 */
export interface ArrowScrape {
  rows: number;
  /**
   * Names the key columns (`keys` in the metadata): the same name, the same rows' ports as the
   * answer before from that collector; null when the collector does not say.
   */
  keys: string | null;
  /** The key columns, read when asked (a string per port). */
  keyColumns(): { nodeGuid: ArrayLike<string>; port: ArrayLike<number> };
  /** Family name → values per row (only the families the answer has). */
  families: Map<string, Float64Array>;
  /** When the collector read the counters, where its source stamped the read. */
  countersReadAtMs: number | null;
  /** When each row's port had its counters read, where the source knows (NaN: `countersReadAtMs`). */
  portReadAtMs: Float64Array | null;
}

/**
 * Reads a collector's Arrow answer, refusing — with the reason — a stream cut short (no end-of-stream marker, or fewer
 * rows than its `ports`), a missing key column or a family that is not Float64.
 */
export function readArrowScrape(bytes: Uint8Array): ArrowScrape {
  const end = bytes.byteLength - EOS.length;
  if (end < 0 || EOS.some((b, i) => bytes[end + i] !== b))
    throw new Error('Arrow answer cut short: no end-of-stream marker');
  let table: ReturnType<typeof tableFromIPC>;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw new Error(`Arrow answer unreadable: ${(error as Error).message}`);
  }
  const metadata = table.schema.metadata ?? new Map<string, string>();
  const rows = Number(metadata.get('ports'));
  if (!Number.isInteger(rows) || rows < 0) throw new Error('Arrow answer lacks its row count (ports)');
  if (table.numRows !== rows) throw new Error(`Arrow answer cut short: ${table.numRows} of ${rows} ports`);
  const key = (name: string) => {
    if (!table.names.includes(name)) throw new Error(`Arrow answer lacks column "${name}"`);
    return table.getChild(name).toArray() as unknown as ArrayLike<never>;
  };
  if (!table.names.includes('node_guid') || !table.names.includes('port'))
    throw new Error(`Arrow answer lacks column "${table.names.includes('port') ? 'node_guid' : 'port'}"`);
  const keyColumns = () => ({
    nodeGuid: key('node_guid') as ArrayLike<string>,
    port: key('port') as ArrayLike<number>,
  });
  const float64 = (name: string) => {
    const values = table.getChild(name).toArray();
    if (!(values instanceof Float64Array))
      throw new Error(`Arrow answer's column "${name}" is not Float64 (nulls or another type)`);
    return values;
  };
  const families = new Map<string, Float64Array>();
  for (const name of table.names) if (name.startsWith('fabscope_')) families.set(name, float64(name));
  const portReadAtMs = table.names.includes(PORT_ARROW_READ_AT_COLUMN)
    ? float64(PORT_ARROW_READ_AT_COLUMN)
    : null;
  const stamp = metadata.get('countersReadAtMs');
  let countersReadAtMs = stamp === undefined ? null : Number(stamp);
  if (countersReadAtMs !== null && !Number.isFinite(countersReadAtMs))
    throw new Error(`Arrow answer's countersReadAtMs "${stamp}" is not a time`);
  // Ports stamped, the answer not: the newest port's instant is the answer's (as the text's newest timestamp).
  if (countersReadAtMs === null && portReadAtMs !== null) countersReadAtMs = newest(portReadAtMs);
  return { rows, keys: metadata.get('keys') ?? null, keyColumns, families, countersReadAtMs, portReadAtMs };
}

/** The largest finite value, or null when none is. */
function newest(values: Float64Array): number | null {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max && Number.isFinite(v)) max = v;
  return Number.isFinite(max) ? max : null;
}
