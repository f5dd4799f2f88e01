import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  columnFromArray,
  Endianness,
  field,
  float64,
  Table,
  tableToIPC,
  utf8,
  Version,
} from '@uwdata/flechette';
import { processAlive, replaceFileDurably } from '../../lib/durable-file.ts';
import type { LinkIndex } from '../../lib/link-index.ts';
import { type FabricIdentity, fabricDirectoryName, fabricIdentity } from './fabric-identity.ts';
import { HISTORY_FORMAT_VERSION } from './frame-schema.ts';

/** A fabric's history directory, held by this process until `release()`. */
export interface FabricHistoryDir {
  path: string;
  identity: FabricIdentity;
  /** The fabric it was opened for. */
  index: LinkIndex;
  release(): void;
}

export class HistoryDirBusyError extends Error {
  override name = 'HistoryDirBusyError';
}

/**
 * Opens `dataDir/history/<fabric>-<hash>/` (docs/history.md) and takes its `lock` (the writer's pid): a second process
 * gets HistoryDirBusyError; a dead process's lock is taken over.
 */
export function openFabricHistoryDir(dataDir: string, index: LinkIndex): FabricHistoryDir {
  const identity = fabricIdentity(index);
  const path = join(dataDir, 'history', fabricDirectoryName(identity));
  mkdirSync(path, { recursive: true });
  const lock = join(path, 'lock');
  takeLock(lock);
  try {
    const directions = join(path, 'directions.arrow');
    if (!existsSync(directions)) replaceFileDurably(directions, directionsTable(index, identity));
  } catch (error) {
    rmSync(lock, { force: true });
    throw error;
  }
  let released = false;
  return {
    path,
    identity,
    index,
    release() {
      if (released) return;
      released = true;
      if (lockHolder(lock) === process.pid) rmSync(lock, { force: true });
    },
  };
}

function lockHolder(lock: string): number | null {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

function takeLock(lock: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = lockHolder(lock);
    if (holder !== null && holder !== process.pid && processAlive(holder)) {
      throw new HistoryDirBusyError(`process ${holder} writes this fabric's history (${lock})`);
    }
    // Its writer is gone (or it is our own pid again, after a restart in a container).
    rmSync(lock, { force: true });
  }
  throw new HistoryDirBusyError(`another process took ${lock} at the same time`);
}

/** Arrow IPC file: `id` and `capacity_bytes_per_second` of each link direction, in channel order. */
function directionsTable(index: LinkIndex, identity: FabricIdentity): Uint8Array {
  const ids = columnFromArray(
    index.channels.map((c) => c.fixed.id),
    utf8(),
  );
  const capacities = columnFromArray(
    Float64Array.from(index.channels, (c) => c.fixed.capacityBytesPerSecond),
  );
  const table = new Table(
    {
      version: Version.V5,
      endianness: Endianness.Little,
      fields: [field('id', utf8(), false), field('capacity_bytes_per_second', float64(), false)],
      metadata: new Map([
        ['fabscope.history', HISTORY_FORMAT_VERSION],
        ['fabscope.fabric', identity.hash],
        ['fabscope.fabric_name', identity.name],
      ]),
    },
    [ids, capacities],
  );
  const bytes = tableToIPC(table, { format: 'file' });
  if (!bytes) throw new Error('Arrow IPC encoder gave no bytes');
  return bytes;
}

/** The fabric's history directory under `dataDir`, or null (memory only; the reason on stderr). */
export function historyDirFor(
  dataDir: string | undefined,
  index: LinkIndex,
  report: (message: string) => void = (message) => process.stderr.write(`fabscope: ${message}\n`),
): FabricHistoryDir | null {
  if (!dataDir) return null;
  try {
    return openFabricHistoryDir(dataDir, index);
  } catch (error) {
    report(`history kept in memory only: ${(error as Error).message}`);
    return null;
  }
}
