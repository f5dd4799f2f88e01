import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `file` so a crash at any point leaves the old or the new one whole: data goes to a temp file beside it
 * (`.name.<pid>.<random>.tmp`), flushed, renamed over the file, and the directory flushed so the rename is kept too.
 */
export function replaceFileDurably(file: string, data: string | Uint8Array): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
  syncDirectory(dirname(file));
}

/** Flushes a directory's entries (a rename, a new file) to disk; a no-op where that is refused. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on a directory: the rename is still atomic there
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Removes what replaceFileDurably left of `file` when a process died before its rename: temporary
 * files of processes no longer running. The file itself is whole either way.
 */
export function removeLeftoverTemps(file: string): void {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(dirname(file), name), { force: true });
  }
}

/** Whether a process with this id runs (on this machine). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
