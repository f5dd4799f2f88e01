import { join } from 'node:path';
import { type ApiConfig, defaultSampleIntervalMs, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  sharedSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { routingFor } from '@fabscope/topology';
import { CHECKOUT_ROOT } from './checkout.ts';
import { fabricFromConfig } from './commands/topology.ts';
import { rateWindowFor } from './prometheus.ts';
import { type SupervisedPrometheus, supervisePrometheus } from './prometheus-supervisor.ts';

export const WEB_ROOT = join(CHECKOUT_ROOT, 'apps/web/dist');

/**
 * Collector shards for Prometheus by cabled ports: one up to fat-tree-1152 (4,608 ports), four
 * beyond (fat-tree-6912: 41,472; fat-tree-27648: 165,888), so that Prometheus parses the shards'
 * answers in parallel within its interval (docs/scaling.md).
 */
export function collectorShardsFor(ports: number): number {
  return ports <= 20_000 ? 1 : 4;
}

/**
 * Prometheus' scrape interval by cabled ports: one at which one Prometheus beside the demo on the
 * 2-core test machine keeps its rule evaluations within the interval, measured with a permutation
 * running (docs/scaling.md, runs J–N). Unlike the embedded store, which skips a tick when a scrape
 * runs long, Prometheus abandons a scrape at its interval and misses a rule evaluation that
 * overruns it. At fat-tree-6912 the rules take 3–13 s an evaluation (at 15 s the data was sometimes
 * older than two intervals: 20 s), at fat-tree-27648 22–25 s (60 s).
 */
export function prometheusIntervalFor(ports: number): number {
  return ports <= 20_000 ? 1000 : ports <= 60_000 ? 20_000 : 60_000;
}

/**
 * Whether the demo's Prometheus also scrapes the collectors' raw counters (its slow job, for a
 * site's own PromQL; nothing of fabscope reads them: the collectors write the rates, errors
 * included, docs/metrics.md "Rates at the edge"). Only up to 20,000 ports, as the collectors' own
 * `rawCounters: 'auto'`: beyond, their 22+ families per port (~3.6 M series at fat-tree-27648)
 * would be most of Prometheus' memory.
 */
export function prometheusRawJobFor(ports: number): boolean {
  return ports <= 20_000;
}

export interface DemoOptions {
  config: ApiConfig;
  /** Start a real Prometheus (from PATH) and read from it instead of the embedded store. */
  prometheus?: boolean;
  collectorPort?: number;
  prometheusPort?: number;
  seed?: number;
  webRoot?: string;
  /** Keep live per-host sysfs/procfs trees here (default FABSCOPE_EMULATOR_SYSFS; unset: none). */
  sysfsDir?: string;
  /** Prometheus forwards every sample (recorded ones too) to these remote-write URLs. */
  remoteWrite?: string[];
  /**
   * Whether the demo's Prometheus also scrapes the raw counters (its slow job). Default by size
   * (prometheusRawJobFor).
   */
  prometheusSlowJob?: boolean;
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
  /** The supervised Prometheus (demo --prometheus), restarted when it dies. */
  prometheus: SupervisedPrometheus | undefined;
  api: RunningApi;
  stop(): Promise<void>;
}

/**
 * The whole pipeline on one machine: emulator → fabric collector → store (embedded or a real
 * Prometheus) → API + web app. Each piece talks to the next over HTTP, as in production.
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { fabric, tables, engine } = fabricFromConfig(options.config);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const emulator = createEmulator({
      fabric,
      tables,
      // The fabric manager's sweeps use the engine that built the tables.
      routing: routingFor(engine),
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

    // The interval by the fabric's size, for the embedded store or Prometheus (whose scrapes must
    // end within it), the rules' rate window following it (prometheus.ts rulesAtInterval).
    const ports = fabric.links.length * 2;
    const intervalMs =
      options.config.sampleIntervalMs ??
      (options.prometheus ? prometheusIntervalFor(ports) : defaultSampleIntervalMs(fabric));
    let prometheus: SupervisedPrometheus | undefined;
    if (options.prometheus) {
      const started: SupervisedPrometheus = await supervisePrometheus({
        targets: collectors.map((c) => new URL(c.url).host),
        scrapeIntervalMs: intervalMs,
        remoteWrite: options.remoteWrite,
        slowJob: options.prometheusSlowJob ?? prometheusRawJobFor(ports),
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
      // Without FABSCOPE_EVENTS_DIR the events live in the API's memory, as long as the demo
      // (and its Prometheus' history, which a restarted Prometheus starts anew) does.
      eventsDir: options.config.eventsDir,
    };
    const api = await startApi(config, fabric, {
      tables,
      webRoot: options.webRoot ?? WEB_ROOT,
    });
    stops.push(() => api.close());
    if (prometheus) api.sampler.reportSupervisor(prometheus.status);
    return {
      fabricName: fabric.name,
      apiUrl: api.url,
      emulatorUrl: emulatorServer.url,
      collectorUrl: collector.url,
      collectorUrls: collectors.map((c) => c.url),
      prometheusUrl: prometheus?.url,
      prometheus,
      api,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
