import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiConfig, defaultSampleIntervalMs, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, routingFor, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { fabricFromConfig } from './commands/topology.ts';
import { type PrometheusServer, rateWindowFor, startPrometheus } from './prometheus.ts';

export const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../apps/web/dist');

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

    // Chunks, not one string: at fat-tree-27648 the exposition is hundreds of megabytes.
    const { scrapeChunks } = createFabricRegistry({ source: emulatorSource(emulatorServer.url) });
    const collector: MetricsServer = await startMetricsServer(scrapeChunks, {
      host: '127.0.0.1',
      port: options.collectorPort ?? 0,
    });
    stops.push(() => collector.close());

    // Prometheus scrapes as often as the embedded store would at this size, its rules' rate
    // window following the interval (prometheus.ts rulesAtInterval); the API reads those series.
    const intervalMs = options.config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
    let prometheus: PrometheusServer | undefined;
    if (options.prometheus) {
      const target = new URL(collector.url).host;
      const started: PrometheusServer = await startPrometheus({
        targets: [target],
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
      collectorUrls: [collector.url],
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
      prometheusUrl: prometheus?.url,
      api,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
