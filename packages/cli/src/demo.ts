import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiConfig, defaultSampleIntervalMs, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  sharedSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, routingFor, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { fabricFromConfig } from './commands/topology.ts';
import { type PrometheusServer, rateWindowFor, startPrometheus } from './prometheus.ts';

export const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../apps/web/dist');

/**
 * Collector shards for Prometheus by cabled ports: one up to fat-tree-1152 (4,608 ports), two at
 * fat-tree-6912 (41,472), four beyond (fat-tree-27648: 165,888): each shard's answer stays under
 * about 45k ports' series, which one Prometheus scrape parses within its interval (docs/scaling.md).
 */
export function collectorShardsFor(ports: number): number {
  return ports <= 20_000 ? 1 : ports <= 60_000 ? 2 : 4;
}

export interface DemoOptions {
  config: ApiConfig;
  /** Start a real Prometheus (from PATH) and read from it instead of the embedded store. */
  prometheus?: boolean;
  collectorPort?: number;
  prometheusPort?: number;
  seed?: number;
  webRoot?: string;
  logger?: boolean;
  /** Keep live per-host sysfs/procfs trees here (default FABSCOPE_EMULATOR_SYSFS; unset: none). */
  sysfsDir?: string;
  /** Prometheus forwards every sample (recorded ones too) to these remote-write URLs. */
  remoteWrite?: string[];
  /**
   * The API reads PromQL from here instead of the demo's Prometheus: a central store the
   * Prometheus remote-writes into (VictoriaMetrics), as per-shard Prometheus servers would.
   */
  readPromqlFrom?: string;
}

export interface RunningDemo {
  /** The emulated fabric: a scenario's name, or the name of the loaded topology file. */
  fabricName: string;
  apiUrl: string;
  emulatorUrl: string;
  collectorUrl: string;
  /** Every collector shard (one unless Prometheus reads a big fabric). */
  collectorUrls: string[];
  prometheusUrl: string | undefined;
  api: RunningApi;
  stop(): Promise<void>;
}

/**
 * The whole pipeline on one machine: emulator → fabric collector → store (embedded or a real
 * Prometheus) → API + web app. Each piece talks to the next over HTTP, as in production.
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { fabric, tables } = fabricFromConfig(options.config);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const emulator = createEmulator({
      fabric,
      tables,
      // The fabric manager's sweeps use the engine that built the tables.
      routing: routingFor(options.config.routing === 'auto' ? undefined : options.config.routing),
      seed: options.seed ?? 1,
      startTimeMs: Date.now(),
    });
    const emulatorServer = await startEmulatorServer(emulator, { host: '127.0.0.1', port: 0 });
    stops.push(() => emulatorServer.close());
    const sysfsDir = options.sysfsDir ?? process.env.FABSCOPE_EMULATOR_SYSFS;
    if (sysfsDir) {
      const sysfs = startSysfsWriter(emulator, sysfsDir);
      stops.push(async () => sysfs.stop());
    }

    // Chunks, not one string: at fat-tree-27648 the exposition is hundreds of megabytes. With
    // Prometheus on a big fabric, the collector is sharded by switch group so that Prometheus
    // scrapes (and parses) the shards in parallel; the shards share one read of the emulator.
    const shards = options.prometheus ? collectorShardsFor(fabric.links.length * 2) : 1;
    const source =
      shards > 1
        ? sharedSource(emulatorSource(emulatorServer.url), 1000)
        : emulatorSource(emulatorServer.url);
    const collectors: MetricsServer[] = [];
    for (let index = 1; index <= shards; index++) {
      const { scrapeChunks } = createFabricRegistry({
        source,
        shard: shards > 1 ? { index, count: shards } : undefined,
      });
      const collector: MetricsServer = await startMetricsServer(scrapeChunks, {
        host: '127.0.0.1',
        port: index === 1 ? (options.collectorPort ?? 0) : 0,
      });
      stops.push(() => collector.close());
      collectors.push(collector);
    }
    const collector = collectors[0] as MetricsServer;

    // Prometheus scrapes as often as the embedded store would at this size, its rules' rate
    // window following the interval (prometheus.ts rulesAtInterval); the API reads those series.
    const intervalMs = options.config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
    let prometheus: PrometheusServer | undefined;
    if (options.prometheus) {
      const started: PrometheusServer = await startPrometheus({
        targets: collectors.map((c) => new URL(c.url).host),
        scrapeIntervalMs: intervalMs,
        remoteWrite: options.remoteWrite,
        ...(options.prometheusPort === undefined ? {} : { port: options.prometheusPort }),
      });
      prometheus = started;
      stops.push(() => started.stop());
    }

    const config: ApiConfig = {
      ...options.config,
      emulatorUrl: emulatorServer.url,
      collectorUrls: collectors.map((c) => c.url),
      prometheusUrl: options.readPromqlFrom ?? prometheus?.url ?? options.config.prometheusUrl,
      sampleIntervalMs: intervalMs,
      ...(prometheus ? { prometheusRateWindow: rateWindowFor(intervalMs) } : {}),
      // Events live beside the demo's Prometheus data, as long as its history does.
      eventsDir:
        options.config.eventsDir ?? (prometheus ? join(dirname(prometheus.configFile), 'events') : undefined),
    };
    const api = await startApi(config, fabric, {
      tables,
      webRoot: options.webRoot ?? WEB_ROOT,
      logger: options.logger ?? false,
    });
    stops.push(() => api.close());
    return {
      fabricName: fabric.name,
      apiUrl: api.url,
      emulatorUrl: emulatorServer.url,
      collectorUrl: collector.url,
      collectorUrls: collectors.map((c) => c.url),
      prometheusUrl: prometheus?.url,
      api,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
