import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Errors that mean "this value is not available here", not a failure: missing, unsupported. */
const NOT_AVAILABLE = new Set(['ENOENT', 'EINVAL', 'ENODEV', 'EOPNOTSUPP', 'ENOTSUP', 'ENXIO']);

/**
 * Reads small pseudo-files under one root (a sysfs or procfs mount, or a fixture tree) at scrape
 * time. A file that is absent or unsupported reads as null; any other failure (permission, I/O,
 * a directory where a file should be) also reads as null and is remembered under its path
 * relative to the root, so the agent can count it in an error metric and go on.
 */
export class TreeReader {
  readonly failures: string[] = [];

  constructor(readonly root: string) {}

  private fail(relative: string, error: unknown): null {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === undefined || !NOT_AVAILABLE.has(code)) this.failures.push(relative);
    return null;
  }

  /** The file's text without the trailing newline(s), or null. */
  text(relative: string): string | null {
    try {
      return readFileSync(join(this.root, relative), 'latin1').replace(/\s+$/, '');
    } catch (error) {
      return this.fail(relative, error);
    }
  }

  /**
   * Entries that are directories (or symlinks to one, as sysfs devices are), sorted: the devices
   * of a class. Regular files beside them (`class/net/bonding_masters`) are not devices and are
   * left out without counting as a failure; an absent directory is an empty list.
   */
  directories(relative: string): string[] {
    return this.list(relative).filter((name) => {
      try {
        return statSync(join(this.root, relative, name)).isDirectory();
      } catch {
        return false; // a dangling symlink: a device that went away while listing
      }
    });
  }

  /** Directory entries, sorted; an absent directory is an empty list. */
  list(relative: string): string[] {
    try {
      return readdirSync(join(this.root, relative)).sort();
    } catch (error) {
      this.fail(relative, error);
      return [];
    }
  }
}

/**
 * An unsigned decimal counter as a number, × multiplier, exact in BigInt when it matters; null
 * for anything that is not a number (`N/A (no PMA)` on iWARP devices, an empty file).
 */
export function parseCounter(text: string | null, multiplier = 1): number | null {
  if (text === null) return null;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  if (trimmed.length <= 15) return Number(trimmed) * multiplier;
  return Number(BigInt(trimmed) * BigInt(multiplier));
}
