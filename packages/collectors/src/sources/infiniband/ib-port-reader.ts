import { createRequire } from 'node:module';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PORT_INFO_EVERY_DEFAULT } from './ib-port-info-cache.ts';
import type { FromChild, ToChild } from './ib-port-reader-child.ts';
import { IbPortReaderError, type Running, startReaderChild } from './ib-port-reader-process.ts';
import { type IbPortReading, RECORD_SIZE, readRecord } from './ib-port-record.ts';
import type { SweepOutcome, SweepSettings } from './ib-sweeper.ts';

export { IbPortReaderError } from './ib-port-reader-process.ts';
export type { IbPortReading } from './ib-port-record.ts';

/** A port to read: a switch's LID (its port 0's) and the port number, or a CA port's own LID and number. */
export interface IbPortTarget {
  lid: number;
  port: number;
  /** A switch's port: its PortSamplesControl (Tick) is read too. */
  switch?: boolean;
}

/** The sweep's settings (IB_PORT_READER_DEFAULTS when absent) and how the child starts. */
export interface IbPortReaderOptions extends Partial<SweepSettings> {
  /** Added to this process's environment for the child (the lab's `{LD_PRELOAD, IBSIM_SOCKNAME}`). */
  env?: Readonly<Record<string, string>>;
  /** The child's command line; default: this Node with tsx running `ib-port-reader-main.ts`. */
  command?: readonly string[];
}

/** One reading per target, in the targets' order (a failed one's `failure` says which and why), and how the sweep went. */
export type IbPortSweep = Omit<SweepOutcome, 'records'> & { readings: IbPortReading[] };

export interface IbPortReader {
  /** Reads every target in one sweep, one read at a time; an aborted read rejects at once. */
  read(targets: readonly IbPortTarget[], signal?: AbortSignal): Promise<IbPortSweep>;
  /** Stops the child (SIGKILL after 2 s) and removes its working directory. */
  close(): Promise<void>;
}

export const IB_PORT_READER_DEFAULTS = {
  outstanding: 32,
  timeoutMs: 500,
  retries: 2,
  portInfoEvery: PORT_INFO_EVERY_DEFAULT,
} as const;

/** `process.execPath --import <tsx> ib-port-reader-main.ts`: the child from source (tests, benches). */
function defaultIbPortReaderCommand(): string[] {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [
    process.execPath,
    '--import',
    tsx,
    fileURLToPath(new URL('./ib-port-reader-main.ts', import.meta.url)),
  ];
}

/** Readings of this many ports are built between two turns of the event loop. */
const CHUNK = 2048;
const CLOSE_GRACE_MS = 2000;
/** The unicast LID range (IBA 4.1.3). */
const MAX_UNICAST_LID = 0xbfff;

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException('the read was aborted', 'AbortError');
}

/** The sweep settings, defaults filled in, each checked against its range. */
function readerSettings(options: IbPortReaderOptions): SweepSettings {
  const settings = {
    outstanding: options.outstanding ?? IB_PORT_READER_DEFAULTS.outstanding,
    timeoutMs: options.timeoutMs ?? IB_PORT_READER_DEFAULTS.timeoutMs,
    retries: options.retries ?? IB_PORT_READER_DEFAULTS.retries,
    resetCounters: options.resetCounters ?? false,
    portInfoEvery: options.portInfoEvery ?? IB_PORT_READER_DEFAULTS.portInfoEvery,
  };
  if (!Number.isInteger(settings.outstanding) || settings.outstanding < 1 || settings.outstanding > 1024) {
    throw new RangeError(`outstanding ${settings.outstanding} is not an integer in 1..1024`);
  }
  if (
    !Number.isInteger(settings.portInfoEvery) ||
    settings.portInfoEvery < 1 ||
    settings.portInfoEvery > 1000
  ) {
    throw new RangeError(`portInfoEvery ${settings.portInfoEvery} is not an integer in 1..1000`);
  }
  if (!(settings.timeoutMs >= 1)) throw new RangeError(`timeoutMs ${settings.timeoutMs} is below 1`);
  if (!Number.isInteger(settings.retries) || settings.retries < 0 || settings.retries > 20) {
    throw new RangeError(`retries ${settings.retries} is not an integer in 0..20`);
  }
  return settings;
}

/** The targets as the child takes them: LIDs and port numbers, each checked. */
function targetArrays(targets: readonly IbPortTarget[]): TargetArrays {
  const n = targets.length;
  const lids = new Uint16Array(n);
  const ports = new Uint8Array(n);
  const switches = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = targets[i] as IbPortTarget;
    if (!Number.isInteger(t.lid) || t.lid < 1 || t.lid > MAX_UNICAST_LID) {
      throw new RangeError(`target ${i}: LID ${t.lid} is not a unicast LID (1..${MAX_UNICAST_LID})`);
    }
    if (!Number.isInteger(t.port) || t.port < 0 || t.port > 254) {
      throw new RangeError(`target ${i}: port ${t.port} is not a port number (0..254)`);
    }
    lids[i] = t.lid;
    ports[i] = t.port;
    switches[i] = t.switch ? 1 : 0;
  }
  return { lids, ports, switches };
}

interface TargetArrays {
  lids: Uint16Array;
  ports: Uint8Array;
  switches: Uint8Array;
}

/** The child's records as readings, CHUNK ports between two turns of the event loop. */
async function sweepOf(
  m: Extract<FromChild, { type: 'result' }>,
  n: number,
  tries: number,
  signal: AbortSignal | undefined,
): Promise<IbPortSweep> {
  const records = Buffer.from(m.records.buffer, m.records.byteOffset, m.records.byteLength);
  if (records.byteLength !== n * RECORD_SIZE) {
    throw new IbPortReaderError(`the reader child answered ${records.byteLength} bytes for ${n} ports`);
  }
  const readings: IbPortReading[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % CHUNK === 0) {
      await yieldToLoop();
      signal?.throwIfAborted();
    }
    readings[i] = readRecord(records, i, tries);
  }
  const { readAtMs, durationSeconds, madsSent, madsByAttribute, retries, failures } = m;
  return { readings, readAtMs, durationSeconds, madsSent, madsByAttribute, retries, failures };
}

/** `answer`, or its rejection as soon as `signal` aborts. */
function abortable<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Opens a reader of port states and counters by LID through libibumad, in a child process (umad_recv
 * blocks, and umad2sim must be preloaded at its start). No SA: it works with the subnet manager down.
 */
export function openIbPortReader(options: IbPortReaderOptions = {}): IbPortReader {
  const command = options.command ?? defaultIbPortReaderCommand();
  if (command.length === 0) throw new RangeError('the reader child command is empty');
  const settings = readerSettings(options);

  let running: Running | undefined;
  let closed = false;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();

  const sweep = async (targets: TargetArrays) => {
    if (closed) throw new IbPortReaderError('the InfiniBand port reader is closed');
    running ??= startReaderChild(command, options.env, (child) => {
      if (running?.process === child) running = undefined;
    });
    const r = running;
    r.process.channel?.ref();
    try {
      await r.ready;
      return await sweepIn(r, targets);
    } finally {
      r.process.channel?.unref();
    }
  };

  const sweepIn = (r: Running, targets: TargetArrays) => {
    const { lids, ports, switches } = targets;
    if (!sameTargets([r.lids, r.ports, r.switches], [lids, ports, switches])) {
      r.process.send({ type: 'targets', lids, ports, switches } satisfies ToChild);
      r.lids = lids;
      r.ports = ports;
      r.switches = switches;
    }
    const id = nextId++;
    const result = new Promise<Extract<FromChild, { type: 'result' }>>((resolve, reject) =>
      r.results.set(id, { resolve, reject }),
    );
    r.process.send({ type: 'sweep', id, settings } satisfies ToChild);
    return result;
  };

  return {
    read(targets, signal) {
      let arrays: TargetArrays;
      try {
        signal?.throwIfAborted();
        arrays = targetArrays(targets);
      } catch (error) {
        return Promise.reject(error);
      }
      const done = queue.then(() => sweep(arrays));
      queue = done.catch(() => undefined);
      return abortable(
        done.then((m) => sweepOf(m, targets.length, settings.retries + 1, signal)),
        signal,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      const r = running;
      running = undefined;
      if (!r || r.process.exitCode !== null || r.process.signalCode !== null) return;
      r.process.ref();
      const kill = setTimeout(() => r.process.kill('SIGKILL'), CLOSE_GRACE_MS);
      if (r.process.connected) r.process.send({ type: 'close' } satisfies ToChild);
      else r.process.kill('SIGTERM');
      await r.exited;
      clearTimeout(kill);
    },
  };
}

function sameTargets(
  kept: readonly (Uint16Array | Uint8Array | null)[],
  next: readonly (Uint16Array | Uint8Array)[],
): boolean {
  const bytes = (a: Uint16Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return kept.every((a, i) => a !== null && bytes(a).equals(bytes(next[i] as Uint16Array | Uint8Array)));
}
