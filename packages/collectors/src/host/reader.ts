import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Errors that mean "this value is not available here", not a failure: missing, unsupported. */
const NOT_AVAILABLE = new Set(['ENOENT', 'EINVAL', 'ENODEV', 'EOPNOTSUPP', 'ENOTSUP', 'ENXIO']);

/**
 * Reads small pseudo-files under one root (sysfs, procfs or a fixture tree) at scrape time. A file
 * that fails reads as null; a failure other than absent/unsupported is remembered by path for the error metric.
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
   * Entries that are directories (or symlinks to one, as sysfs devices are), sorted; regular files beside them
   * (`class/net/bonding_masters`) are skipped without counting as a failure; an absent directory is an empty list.
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

/** An unsigned decimal counter × multiplier (exact in BigInt); null for anything else (`N/A (no PMA)`). */
export function parseCounter(text: string | null, multiplier = 1): number | null {
  if (text === null) return null;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  if (trimmed.length <= 15) return Number(trimmed) * multiplier;
  return Number(BigInt(trimmed) * BigInt(multiplier));
}
