import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes files atomically, skipping those whose content has not changed. */
export class SysfsFiles {
  private readonly written = new Map<string, string>();
  private readonly dirs = new Set<string>();

  constructor(private readonly root: string) {}

  put(path: string, content: string): void {
    const full = join(this.root, path);
    if (this.written.get(full) === content) return;
    const parent = full.slice(0, full.lastIndexOf('/'));
    if (!this.dirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.dirs.add(parent);
    }
    const temp = `${parent}/.${full.slice(parent.length + 1)}.${process.pid}.tmp`;
    writeFileSync(temp, content);
    renameSync(temp, full);
    this.written.set(full, content);
  }
}
