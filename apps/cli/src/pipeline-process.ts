import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  sharedSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { type RoutingEngineName, routingFor } from '@fabscope/topology';
import { CHECKOUT_ROOT } from './checkout.ts';
import { fabricFromConfig } from './commands/topology.ts';

/**
 * Collector shards for Prometheus by cabled ports: one up to fat-tree-1152 (4,608 ports), four
 * beyond (fat-tree-6912: 41,472; fat-tree-27648: 165,888), so that Prometheus parses the shards'
 * answers in parallel within its interval (docs/scaling.md).
 */
export function collectorShardsFor(ports: number): number {
  return ports <= 20_000 ? 1 : 4;
}

/** What the pipeline process builds: the demo's fabric (as the API loads it) and its pieces. */
export interface PipelineOptions {
  scenario: string;
  topologyPath?: string | undefined;
  routing?: RoutingEngineName | 'auto' | undefined;
  seed: number;
  /** Shard the collector for Prometheus at the fabric's size (collectorShardsFor); else one. */
  shardForPrometheus: boolean;
  /** The first collector's port (0 or absent: any free one). */
  collectorPort?: number | undefined;
  /** Keep live per-host sysfs/procfs trees here. */
  sysfsDir?: string | undefined;
}

export interface PipelineUrls {
  emulatorUrl: string;
  /** Every collector shard, the first on `collectorPort`. */
  collectorUrls: string[];
}

export interface RunningPipeline extends PipelineUrls {
  pid: number;
  /** Stops the process: SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

type FromChild = { type: 'ready'; urls: PipelineUrls } | { type: 'failed'; message: string };

const STOP_GRACE_MS = 5000;

/**
 * The demo's emulator, its fabric collector(s) and sysfs writer in a child process of their own
 * (the CLI's hidden `__pipeline` command, from the compiled cache as every command), so that a
 * tick of a 27,648-host fabric computed there never holds the API's event loop. They talk HTTP to
 * the API as on a site; only their URLs come back, over the IPC channel. The child ends when
 * `stop()` is called and when this process dies (its IPC channel closes: no orphan).
 */
export function startPipelineProcess(options: PipelineOptions): Promise<RunningPipeline> {
  const child = spawn(
    process.execPath,
    [join(CHECKOUT_ROOT, 'apps/cli/bin/fabscope.js'), '__pipeline', JSON.stringify(options)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  let stopping = false;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(new Error(`the pipeline process exited before it was ready (${signal ?? `code ${code}`})`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message: FromChild) => {
      child.off('exit', onExit);
      if (message.type === 'failed') {
        void stop();
        reject(new Error(`the pipeline process failed: ${message.message}`));
        return;
      }
      // Once ready, an unexpected end is said where the demo's operator sees it.
      child.once('exit', (code, signal) => {
        if (stopping) return;
        process.stderr.write(
          `fabscope: the pipeline process (emulator, collector) exited (${signal ?? `code ${code}`}); the API answers 502 for it\n`,
        );
      });
      resolve({
        ...message.urls,
        pid: child.pid as number,
        stop: () => {
          stopping = true;
          return stop();
        },
      });
    });
  });
}

/**
 * The child's side (`fabscope __pipeline OPTIONS`): builds the fabric, starts the emulator, the
 * collector shard(s) and the sysfs writer, sends their URLs, and stops them on SIGTERM or when
 * the parent goes. SIGINT (Ctrl-C reaches the whole process group) is left to the parent, which
 * stops the API first and then this process.
 */
export async function runPipelineChild(optionsJson: string | undefined): Promise<void> {
  const send = (message: FromChild) =>
    new Promise<void>((resolve) => {
      if (process.send) process.send(message, () => resolve());
      else {
        process.stdout.write(`${JSON.stringify(message)}\n`);
        resolve();
      }
    });
  const stops: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      for (const s of stops.reverse()) await s().catch(() => undefined);
      process.exit(0);
    })();
    return stopping;
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => undefined);
  process.on('disconnect', () => void stop());
  try {
    const options = JSON.parse(optionsJson ?? '') as PipelineOptions;
    const urls = await startPipeline(options, stops);
    await send({ type: 'ready', urls });
  } catch (error) {
    await send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    for (const s of stops.reverse()) await s().catch(() => undefined);
    process.exit(1);
  }
}

async function startPipeline(
  options: PipelineOptions,
  stops: (() => Promise<void>)[],
): Promise<PipelineUrls> {
  const { fabric, tables, engine } = fabricFromConfig(options);
  const emulator = createEmulator({
    fabric,
    tables,
    // The fabric manager's sweeps use the engine that built the tables.
    routing: routingFor(engine),
    seed: options.seed,
    startTimeMs: Date.now(),
  });
  const emulatorServer = await startEmulatorServer(emulator, { host: '127.0.0.1', port: 0 });
  stops.push(() => emulatorServer.close());
  if (options.sysfsDir) {
    const sysfs = startSysfsWriter(emulator, options.sysfsDir);
    stops.push(async () => sysfs.stop());
  }
  // Chunks, not one string: at fat-tree-27648 the exposition is hundreds of megabytes. With
  // Prometheus on a big fabric, the collector is sharded by switch group so that Prometheus
  // scrapes (and parses) the shards in parallel; the shards share one read of the emulator.
  const shards = options.shardForPrometheus ? collectorShardsFor(fabric.links.length * 2) : 1;
  const source =
    shards > 1 ? sharedSource(emulatorSource(emulatorServer.url), 1000) : emulatorSource(emulatorServer.url);
  const collectors: MetricsServer[] = [];
  for (let index = 1; index <= shards; index++) {
    const { scrapeChunks } = createFabricRegistry({
      source,
      shard: shards > 1 ? { index, count: shards } : undefined,
    });
    const collector = await startMetricsServer(scrapeChunks, {
      host: '127.0.0.1',
      port: index === 1 ? (options.collectorPort ?? 0) : 0,
    });
    stops.push(() => collector.close());
    collectors.push(collector);
  }
  return { emulatorUrl: emulatorServer.url, collectorUrls: collectors.map((c) => c.url) };
}
