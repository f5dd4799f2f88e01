import { readFile, stat } from 'node:fs/promises';
import type { SmTablesRead, SmTablesSource } from './source.ts';

/** A dump ends with the last switch's `N lids dumped` (OpenSM) or `N valid lids dumped` (ibroute). */
const ENDS_COMPLETE = /\b\d+\s+(valid\s+)?lids dumped\s*$/i;

/** OpenSM's `opensm-lfts.dump`, taken when it changed, ends with `N lids dumped` and held still across the read. */
export class LftsDumpFile implements SmTablesSource {
  readonly from = 'lfts-dump';

  constructor(readonly path: string) {}

  async read(applied: string | undefined): Promise<SmTablesRead> {
    const before = await stat(this.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!before) return { kind: 'not-ready', reason: `${this.path} does not exist (yet)` };
    const version = `${before.mtimeMs}:${before.size}`;
    if (version === applied) return { kind: 'unchanged' };
    const bytes = await readFile(this.path);
    const after = await stat(this.path);
    if (after.mtimeMs !== before.mtimeMs || after.size !== before.size || bytes.length !== before.size) {
      return { kind: 'not-ready', reason: 'the file is being written' };
    }
    const text = bytes.toString('utf8');
    if (!ENDS_COMPLETE.test(text))
      return {
        kind: 'not-ready',
        reason: 'the file does not end with its "N lids dumped" line (being written)',
      };
    return { kind: 'dump', text, version };
  }
}
