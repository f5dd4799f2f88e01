import { createHash } from 'node:crypto';
import type { LinkIndex } from '../../lib/link-index.ts';

/** Which fabric a history belongs to: its link directions, in channel order, and their capacities. */
export interface FabricIdentity {
  name: string;
  /** SHA-256 (hex) of every direction's id and capacity, in channel order. */
  hash: string;
  channels: number;
}

/**
 * The identity of the fabric a LinkIndex describes: a history recorded on another topology (a link
 * more or less, another order, another speed) has another hash, and is never read as this one's.
 */
export function fabricIdentity(index: LinkIndex): FabricIdentity {
  const hash = createHash('sha256');
  hash.update(`fabscope link directions ${index.channels.length}\n`);
  for (const { fixed } of index.channels) hash.update(`${fixed.id}\t${fixed.capacityBytesPerSecond}\n`);
  return { name: index.fabric.name, hash: hash.digest('hex'), channels: index.channels.length };
}

/** The directory name of a fabric's history: readable, and unique by the hash. */
export function fabricDirectoryName(identity: FabricIdentity): string {
  const readable = identity.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'fabric';
  return `${readable}-${identity.hash.slice(0, 16)}`;
}
