import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiConfig, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  type MetricsServer,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { routingFor } from '@fabscope/topology';
import { fabricFromConfig } from './commands/topology.ts';
import { type SupervisedPrometheus, supervisePrometheus } from './prometheus-supervisor.ts';

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
}

export interface RunningDemo {
  /** The emulated fabric: a scenario's name, or the name of the loaded topology file. */
  fabricName: string;
  apiUrl: string;
  emulatorUrl: string;
  collectorUrl: string;
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

    // Chunks, not one string: at fat-tree-27648 the exposition is hundreds of megabytes.
    const { scrapeChunks } = createFabricRegistry({ source: emulatorSource(emulatorServer.url) });
    const collector: MetricsServer = await startMetricsServer(scrapeChunks, {
      host: '127.0.0.1',
      port: options.collectorPort ?? 0,
    });
    stops.push(() => collector.close());

    let prometheus: SupervisedPrometheus | undefined;
    if (options.prometheus) {
      const target = new URL(collector.url).host;
      const started: SupervisedPrometheus = await supervisePrometheus(
        options.prometheusPort === undefined
          ? { targets: [target] }
          : { targets: [target], port: options.prometheusPort },
      );
      prometheus = started;
      stops.push(() => started.stop());
    }

    const config: ApiConfig = {
      ...options.config,
      emulatorUrl: emulatorServer.url,
      collectorUrls: [collector.url],
      prometheusUrl: prometheus?.url ?? options.config.prometheusUrl,
    };
    const api = await startApi(config, fabric, {
      tables,
      webRoot: options.webRoot ?? WEB_ROOT,
      logger: options.logger ?? false,
    });
    stops.push(() => api.close());
    if (prometheus) api.sampler.reportSupervisor(prometheus.status);
    return {
      fabricName: fabric.name,
      apiUrl: api.url,
      emulatorUrl: emulatorServer.url,
      collectorUrl: collector.url,
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
