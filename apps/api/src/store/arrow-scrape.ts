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
  const families = new Map<string, Float64Array>();
  for (const name of table.names) {
    if (!name.startsWith('fabscope_')) continue;
    const values = table.getChild(name).toArray();
    if (!(values instanceof Float64Array))
      throw new Error(`Arrow answer's column "${name}" is not Float64 (nulls or another type)`);
    families.set(name, values);
  }
  const stamp = metadata.get('countersReadAtMs');
  const countersReadAtMs = stamp === undefined ? null : Number(stamp);
  if (countersReadAtMs !== null && !Number.isFinite(countersReadAtMs))
    throw new Error(`Arrow answer's countersReadAtMs "${stamp}" is not a time`);
  return { rows, keys: metadata.get('keys') ?? null, keyColumns, families, countersReadAtMs };
}
