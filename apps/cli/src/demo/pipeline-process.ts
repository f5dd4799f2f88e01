import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createFabricRegistry, sharedSource, startMetricsServer } from '@fabscope/collectors';
import { CHECKOUT_ROOT } from '../checkout.ts';
import { openSource } from '../commands/collect.ts';
import { type EmulatorSettings, serveEmulator } from '../commands/emulator.ts';
import { endChild } from '../pieces.ts';

/** The collector's process: reads the emulator over HTTP, as it would read hardware. */
export interface CollectorProcessOptions {
  emulatorUrl: string;
  /** Collector shards by switch group (demo.ts collectorShardsFor), sharing one read of the emulator. */
  shards: number;
  /** The first shard's port (0 or absent: any free one). */
  collectorPort?: number | undefined;
  /** A read of the emulator answers every scrape within this long, so two scrapers share one sweep. */
  shareReadMs?: number | undefined;
}

/** A piece of the demo running in a child process, and what it serves. */
export interface ChildPiece<T> {
  urls: T;
  pid: number;
  /** Stops the process: SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

type FromChild<T> = { type: 'ready'; urls: T } | { type: 'failed'; message: string };
type Stops = (() => Promise<void>)[];

const STOP_GRACE_MS = 5000;

/** How often the demo's emulator advances its clock without a request (the sysfs writer's interval). */
const EMULATOR_TICK_MS = 1000;
/** The same without a sysfs writer: the clock catches up at every request anyway. */
const IDLE_TICK_MS = 60_000;

/** What each child runs, and the URLs it answers with. */
const ROLES = {
  async emulator(settings: EmulatorSettings, stops: Stops) {
    // The clock catches up at every request, so the tick only bounds how old the sysfs trees are.
    const tickMs = settings.sysfsDir ? EMULATOR_TICK_MS : IDLE_TICK_MS;
    const emulator = await serveEmulator(settings, { host: '127.0.0.1', port: 0, tickMs });
    stops.push(emulator.stop);
    return { emulatorUrl: emulator.url };
  },
  async collector(options: CollectorProcessOptions, stops: Stops) {
    const { emulatorUrl, shards } = options;
    const { opened } = await openSource(['--source', 'emulator', '--url', emulatorUrl]);
    const shareReadMs = options.shareReadMs ?? (shards > 1 ? 1000 : 0);
    const source = shareReadMs > 0 ? sharedSource(opened.source, shareReadMs) : opened.source;
    const collectorUrls: string[] = [];
    for (let index = 1; index <= shards; index++) {
      const { answer } = createFabricRegistry({
        source,
        timeoutMs: opened.readTimeoutMs,
        shard: shards > 1 ? { index, count: shards } : undefined,
      });
      // Chunks, not one string: a big fabric's exposition is too large for one.
      const collector = await startMetricsServer(answer, {
        host: '127.0.0.1',
        port: index === 1 ? (options.collectorPort ?? 0) : 0,
      });
      stops.push(() => collector.close());
      collectorUrls.push(collector.url);
    }
    return { collectorUrls };
  },
};
type Role = keyof typeof ROLES;
type UrlsOf<R extends Role> = Awaited<ReturnType<(typeof ROLES)[R]>>;

/** The emulator in a child process, so a big fabric's tick holds neither the API nor the collector. */
export const startEmulatorProcess = (settings: EmulatorSettings) => startChild('emulator', settings);

/** The collector in a child process, so rendering never delays the emulator's or the API's answers. */
export const startCollectorProcess = (options: CollectorProcessOptions) => startChild('collector', options);

/** Runs `fabscope __pipeline ROLE OPTIONS`; the child ends with its parent (its IPC channel closes). */
function startChild<R extends Role>(
  role: R,
  options: Parameters<(typeof ROLES)[R]>[0],
): Promise<ChildPiece<UrlsOf<R>>> {
  const child = spawn(
    process.execPath,
    [join(CHECKOUT_ROOT, 'apps/cli/bin/fabscope.js'), '__pipeline', role, JSON.stringify(options)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  let stopping = false;
  const stop = () => {
    stopping = true;
    return endChild(child, STOP_GRACE_MS);
  };
  return new Promise((resolve, reject) => {
    const early = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`the ${role} process exited before it was ready (${signal ?? `code ${code}`})`));
    child.once('exit', early);
    child.once('error', reject);
    child.once('message', (message: FromChild<UrlsOf<R>>) => {
      child.off('exit', early);
      if (message.type === 'failed') {
        void stop();
        reject(new Error(`the ${role} process failed: ${message.message}`));
        return;
      }
      child.once('exit', (code, signal) => {
        if (!stopping) {
          process.stderr.write(
            `fabscope: the ${role} process exited (${signal ?? `code ${code}`}); the API answers 502 for it\n`,
          );
        }
      });
      resolve({ urls: message.urls, pid: child.pid as number, stop });
    });
  });
}

/** The child's side: SIGINT is left to the parent, which stops the API before this process. */
export async function runPipelineChild(
  role: string | undefined,
  optionsJson: string | undefined,
): Promise<void> {
  const send = (message: FromChild<unknown>) =>
    new Promise<void>((resolve) => {
      if (process.send) process.send(message, () => resolve());
      else process.stdout.write(`${JSON.stringify(message)}\n`, () => resolve());
    });
  const stops: Stops = [];
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      for (const s of stops.reverse()) await s().catch(() => undefined);
      process.exit(code);
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => undefined);
  process.on('disconnect', () => void stop(0));
  try {
    const options = JSON.parse(optionsJson ?? '');
    if (role === undefined || !Object.hasOwn(ROLES, role)) {
      throw new Error(`unknown role "${role}": emulator or collector`);
    }
    const urls = await ROLES[role as Role](options, stops);
    await send({ type: 'ready', urls });
  } catch (error) {
    await send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    await stop(1);
  }
}
