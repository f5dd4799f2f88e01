import { naturalCompare } from '@fabscope/contracts/names';
import type { Fabric, FabricNode, NodeType } from './model.ts';

/** What a Find match was matched on. */
export type FindField = 'name' | 'description' | 'guid' | 'lid' | 'port';
/** How well it matched: the text is the query, starts with it, or holds it. */
export type FindRank = 'exact' | 'prefix' | 'substring';
const RANKS: readonly FindRank[] = ['exact', 'prefix', 'substring'];

export interface FindMatch {
  /** What to open: a node's name, or `node/port`. */
  target: string;
  type: NodeType;
  field: FindField;
  /** The text that matched (the name, description, GUID, LID or `node/port`), as the fabric writes it. */
  text: string;
  rank: FindRank;
}

export interface FindAnswer {
  matches: FindMatch[];
  /** Every node or port that matched, of which `matches` are the best `limit`. */
  total: number;
}

/** A list's texts, lower-cased, in one string a keystroke searches with native indexOf. */
interface Haystack {
  /** Every key followed by a newline (a query never holds one, so a hit never spans two keys). */
  text: string;
  keyStart: Int32Array;
  keyEntry: Int32Array;
  fields: FindField[];
  /** The keys as the fabric writes them, for the answer. */
  texts: string[];
  entryTarget: string[];
  entryType: NodeType[];
}

interface FindIndex {
  nodes: Haystack;
  /** `node/port` and port GUIDs: built when a query first names a port (`/`) or a GUID (`0x`). */
  ports: () => Haystack;
}

// One index per fabric object: a new topology version is a new Fabric, so it is built once per version.
const cache = new WeakMap<Fabric, FindIndex>();

class HaystackBuilder {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  private readonly entries: number[] = [];
  private length = 0;
  readonly fields: FindField[] = [];
  readonly texts: string[] = [];
  readonly entryTarget: string[] = [];
  readonly entryType: NodeType[] = [];
  entry(target: string, type: NodeType): void {
    this.entryTarget.push(target);
    this.entryType.push(type);
  }
  add(field: FindField, text: string): void {
    const key = text.toLowerCase().replaceAll('\n', ' ');
    this.starts.push(this.length);
    this.entries.push(this.entryTarget.length - 1);
    this.parts.push(key, '\n');
    this.length += key.length + 1;
    this.fields.push(field);
    this.texts.push(text);
  }
  done(): Haystack {
    return {
      text: this.parts.join(''),
      keyStart: Int32Array.from(this.starts),
      keyEntry: Int32Array.from(this.entries),
      fields: this.fields,
      texts: this.texts,
      entryTarget: this.entryTarget,
      entryType: this.entryType,
    };
  }
}

/** The fabric's Find index: every node's name, description, GUID and LID, every cabled port, in natural order. */
export function findIndex(fabric: Fabric): FindIndex {
  const cached = cache.get(fabric);
  if (cached) return cached;
  const ordered = [...fabric.nodes].sort((a, b) => naturalCompare(a.name, b.name));
  const nodes = new HaystackBuilder();
  for (const node of ordered) {
    nodes.entry(node.name, node.type);
    nodes.add('name', node.name);
    if (node.description && node.description !== node.name) nodes.add('description', node.description);
    nodes.add('guid', node.guid);
    if (node.lid > 0) nodes.add('lid', String(node.lid));
  }
  let portHaystack: Haystack | null = null;
  const ports = () => {
    portHaystack ??= portsOf(ordered);
    return portHaystack;
  };
  const index = { nodes: nodes.done(), ports };
  cache.set(fabric, index);
  return index;
}

function portsOf(ordered: readonly FabricNode[]): Haystack {
  const ports = new HaystackBuilder();
  for (const node of ordered) {
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      const name = `${node.name}/${port.number}`;
      ports.entry(name, node.type);
      ports.add('port', name);
      if (port.guid !== node.guid) ports.add('guid', port.guid);
    }
  }
  return ports.done();
}

/**
 * Nodes and ports whose name, description, GUID, LID or `node/port` holds the query, case-insensitive:
 * exact matches first, then prefix, then substring, each in natural order; at most `limit` of them.
 * A LID matches only a query of digits (or `lid:N`), so `1` does not offer every name with a 1 in it twice.
 */
export function findInFabric(fabric: Fabric, query: string, limit: number): FindAnswer {
  const lidQuery = /^lid[:\s]?\s*(\d+)$/i.exec(query.trim());
  const q = (lidQuery ? (lidQuery[1] as string) : query.trim()).toLowerCase();
  if (q === '' || q.includes('\n')) return { matches: [], total: 0 };
  const index = findIndex(fabric);
  const lids = { too: /^\d+$/.test(q), only: lidQuery !== null };
  const nodes = scan(index.nodes, q, lids, limit);
  const ports = q.includes('/') || q.startsWith('0x') ? scan(index.ports(), q, lids, limit) : null;
  // Each list is in natural order; where both matched, a rank's best `limit` are among each list's first.
  const matches = nodes.byRank.flatMap((bucket, rank) =>
    ports
      ? [...bucket, ...(ports.byRank[rank] ?? [])].sort((a, b) => naturalCompare(a.target, b.target))
      : bucket,
  );
  return { matches: matches.slice(0, limit), total: nodes.total + (ports?.total ?? 0) };
}

/** Every entry holding the query, its best key kept (0 exact, 1 prefix, 2 substring); the first `limit` per rank. */
function scan(
  hay: Haystack,
  q: string,
  lids: { too: boolean; only: boolean },
  limit: number,
): { byRank: FindMatch[][]; total: number } {
  const byRank: FindMatch[][] = [[], [], []];
  let total = 0;
  let entry = -1;
  let best = { rank: 3, key: -1 };
  const settle = () => {
    if (entry < 0 || best.key < 0) return;
    total++;
    const bucket = byRank[best.rank] as FindMatch[];
    if (bucket.length < limit) {
      bucket.push({
        target: hay.entryTarget[entry] as string,
        type: hay.entryType[entry] as NodeType,
        field: hay.fields[best.key] as FindField,
        text: hay.texts[best.key] as string,
        rank: RANKS[best.rank] as FindRank,
      });
    }
  };
  let at = hay.text.indexOf(q);
  while (at >= 0) {
    const key = keyAt(hay.keyStart, at);
    const start = hay.keyStart[key] as number;
    const next = (hay.keyStart[key + 1] ?? hay.text.length) - 1;
    const isLid = hay.fields[key] === 'lid';
    if (!((isLid && !lids.too) || (lids.only && !isLid))) {
      const rank = at > start ? 2 : next - start === q.length ? 0 : 1;
      const owner = hay.keyEntry[key] as number;
      if (owner !== entry) {
        settle();
        entry = owner;
        best = { rank, key };
      } else if (rank < best.rank) best = { rank, key };
    }
    at = hay.text.indexOf(q, next + 1);
  }
  settle();
  return { byRank, total };
}

/** The key holding text position `at`: the last key starting at or before it. */
function keyAt(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
