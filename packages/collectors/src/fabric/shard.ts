import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';

/** One of `count` collectors of a fabric: shard `index` (1-based, as `--shard 2/4` writes it). */
export interface Shard {
  index: number;
  count: number;
}

export class ShardError extends Error {
  override name = 'ShardError';
}

/** `K/N` with 1 ≤ K ≤ N ≤ 1024. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !(count >= 1 && count <= 1024) || !(index >= 1 && index <= count)) {
    throw new ShardError(`--shard must be K/N with 1 ≤ K ≤ N ≤ 1024 (e.g. 2/4), got "${text}"`);
  }
  return { index, count };
}

/** FNV-1a (32 bit): stable across processes and runs, unlike anything keyed on memory. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard (1..count) of a port: a switch's ports go with it, an adapter's with the switch it is cabled to. */
export function shardOfPort(port: PortSample, count: number): number {
  const owner = port.nodeType === 'switch' ? port.nodeGuid : (port.remote?.nodeGuid ?? port.nodeGuid);
  return (fnv1a(owner) % count) + 1;
}

/**
 * A source whose reads are shared for `maxAgeMs`: several shard collectors in one process (the
 * demo) scraped at about the same time read the emulator once between them.
 */
export function sharedSource(source: FabricSource, maxAgeMs: number): FabricSource {
  let last: { at: number; read: Promise<FabricSnapshot> } | null = null;
  return {
    name: source.name,
    read(signal) {
      const now = performance.now();
      if (last && now - last.at <= maxAgeMs) return last.read;
      const read = source.read(signal);
      last = { at: now, read };
      read.catch(() => {
        if (last?.read === read) last = null;
      });
      return read;
    },
  };
}
