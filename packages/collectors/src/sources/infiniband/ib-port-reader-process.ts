import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FromChild } from './ib-port-reader-child.ts';

export class IbPortReaderError extends Error {
  override name = 'IbPortReaderError';
}

/** Children running, with their working directories. */
const live = new Map<ChildProcess, string>();
let exitHookInstalled = false;
function track(child: ChildProcess, dir: string): void {
  live.set(child, dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A parent that exits leaves no reader behind (a child also exits when its channel closes).
    process.once('exit', () => {
      for (const [c, d] of live) {
        c.kill('SIGKILL');
        rmSync(d, { recursive: true, force: true });
      }
    });
  }
}

function untrack(child: ChildProcess): void {
  const dir = live.get(child);
  live.delete(child);
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export interface Running {
  process: ChildProcess;
  ready: Promise<void>;
  /** The targets the child has, to send them again only when they change. */
  lids: Uint16Array | null;
  ports: Uint8Array | null;
  switches: Uint8Array | null;
  results: Map<
    number,
    { resolve: (m: Extract<FromChild, { type: 'result' }>) => void; reject: (e: Error) => void }
  >;
  exited: Promise<void>;
}

/** Starts the reader's child process; `ready` settles once it has opened its umad port. */
export function startReaderChild(
  command: readonly string[],
  env: Readonly<Record<string, string>> | undefined,
  onExit: (child: ChildProcess) => void,
): Running {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-ib-reader-'));
  // cwd: umad2sim writes its fake sysfs tree there (and removes it at a normal exit).
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  track(child, dir);
  // An idle reader does not keep this process alive; a read in flight does (see sweep).
  child.unref();
  child.channel?.unref();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  (child.stdout as { unref?: () => void } | null)?.unref?.();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  const tail = () => output.trim().split('\n').slice(-3).join(' | ');
  const results: Running['results'] = new Map();
  let settleReady = { resolve: (): void => undefined, reject: (_: Error): void => undefined };
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  ready.catch(() => undefined);
  let failure: Error | undefined;
  child.on('message', (message: FromChild) => {
    if (message.type === 'ready') settleReady.resolve();
    else if (message.type === 'error') {
      failure = new IbPortReaderError(`InfiniBand port reader: ${message.message}`);
      settleReady.reject(failure);
    } else if (message.type === 'result') {
      const waiter = results.get(message.id);
      results.delete(message.id);
      waiter?.resolve(message);
    }
  });
  let finished = false;
  let markExited: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    markExited = resolve;
  });
  const finish = (why: Error) => {
    if (finished) return;
    finished = true;
    untrack(child);
    failure ??= why;
    settleReady.reject(failure);
    for (const waiter of results.values()) waiter.reject(failure);
    results.clear();
    onExit(child);
    markExited();
  };
  child.on('error', (error) => {
    // Not started at all (no 'exit' follows then), or a message that could not be sent.
    if (child.pid === undefined) {
      finish(new IbPortReaderError(`InfiniBand port reader: cannot start ${command[0]}: ${error.message}`));
    }
  });
  child.once('exit', (code, signal) =>
    finish(
      new IbPortReaderError(
        `InfiniBand port reader exited (${code ?? signal})${tail() ? `: ${tail()}` : ''}`,
      ),
    ),
  );
  return { process: child, ready, lids: null, ports: null, switches: null, results, exited };
}
