import { join } from 'node:path';
import {
  type ApiConfig,
  defaultSampleIntervalMs,
  type LiveSource,
  type RunningApi,
  startApi,
} from '@fabscope/api';
import { CHECKOUT_ROOT } from '../checkout.ts';
import { fabricFromConfig } from '../commands/topology.ts';
import { startPieces } from '../pieces.ts';
import { type AlertmanagerTimings, startAlertmanager } from '../prometheus/alertmanager.ts';
import { rateWindowFor } from '../prometheus/prometheus.ts';
import { type SupervisedPrometheus, supervisePrometheus } from '../prometheus/supervisor.ts';
import { startCollectorProcess, startEmulatorProcess } from './pipeline-process.ts';

export const WEB_ROOT = join(CHECKOUT_ROOT, 'apps/web/dist');

/** The live view's source beside Prometheus: the TSDB's dense reads outlast the interval on big fabrics. */
export function liveSourceFor(ports: number): LiveSource {
  return ports <= 60_000 ? 'tsdb' : 'collectors';
}

/** Prometheus' scrape interval by cabled ports, one at which it holds (docs/scaling.md). */
export function prometheusIntervalFor(ports: number, liveSource: LiveSource = liveSourceFor(ports)): number {
  if (ports <= 20_000) return 1000;
  if (ports <= 60_000) return 5000;
  return liveSource === 'collectors' ? 10_000 : 60_000;
}

/** Collector shards by cabled ports, so Prometheus parses them in parallel (docs/scaling.md). */
export function collectorShardsFor(ports: number): number {
  return ports <= 20_000 ? 1 : 4;
}

/** Whether Prometheus scrapes the raw counters too: on big fabrics they would be most of its memory. */
export function prometheusRawJobFor(ports: number): boolean {
  return ports <= 20_000;
}

export interface DemoOptions {
  config: ApiConfig;
  /** Start a real Prometheus (from PATH) and read from it instead of the embedded store. */
  prometheus?: boolean;
  collectorPort?: number;
  prometheusPort?: number;
  webRoot?: string;
  /** Prometheus forwards every sample (recorded ones too) to these remote-write URLs. */
  remoteWrite?: string[];
  /** Whether Prometheus scrapes the raw counters too; default prometheusRawJobFor. */
  prometheusSlowJob?: boolean;
  /** A central store (VictoriaMetrics) the API reads PromQL from instead of the demo's Prometheus. */
  readPromqlFrom?: string;
  /** With `prometheus`: a real Alertmanager its alerts go to, posting to `webhookUrl`. */
  alertmanager?: (AlertmanagerTimings & { webhookUrl?: string | undefined; port?: number }) | undefined;
  /** With `prometheus`: send the alerts to this (a site's) Alertmanager as well. */
  alertmanagerUrl?: string | undefined;
}

export interface RunningDemo {
  /** The emulated fabric: a scenario's name, or the name of the loaded topology file. */
  fabricName: string;
  apiUrl: string;
  emulatorUrl: string;
  collectorUrl: string;
  /** Every collector shard (one unless Prometheus reads a big fabric). */
  collectorUrls: string[];
  /** The processes running the emulator and the collector (every shard) (pipeline-process.ts). */
  pipelinePids: { emulator: number; collector: number };
  prometheusUrl: string | undefined;
  /** The supervised Prometheus (demo --prometheus), restarted when it dies. */
  prometheus: SupervisedPrometheus | undefined;
  /** The demo's own Alertmanager (`alertmanager`), the one its Prometheus sends alerts to. */
  alertmanagerUrl: string | undefined;
  api: RunningApi;
  stop(): Promise<void>;
}

/** The whole pipeline on one machine, each piece talking HTTP to the next as in production. */
export function startDemo(options: DemoOptions): Promise<RunningDemo> {
  return startPieces(async (stops, stop) => {
    // The child builds the same fabric from the same settings while this process builds its own.
    const emulatorStarting = startEmulatorProcess({
      scenario: options.config.scenario,
      topologyPath: options.config.topologyPath,
      routing: options.config.routing,
      seed: 1,
      // Live per-host sysfs/procfs trees, when asked.
      sysfsDir: process.env.FABSCOPE_EMULATOR_SYSFS,
    });
    // Stopped whatever happens below, once it is up (last: the collector and the API read it).
    stops.push(async () => (await emulatorStarting.catch(() => undefined))?.stop());
    const { fabric, tables } = fabricFromConfig(options.config);
    const emulator = await emulatorStarting;
    const emulatorUrl = emulator.urls.emulatorUrl;
    const ports = fabric.links.length * 2;
    // Beside Prometheus the live view reads the TSDB, or on big fabrics the collectors.
    const liveSource = options.config.liveSource ?? (options.prometheus ? liveSourceFor(ports) : undefined);
    const intervalMs =
      options.config.sampleIntervalMs ??
      (options.prometheus ? prometheusIntervalFor(ports, liveSource) : defaultSampleIntervalMs(fabric));
    const twoScrapers = options.prometheus === true && liveSource === 'collectors';
    const collector = await startCollectorProcess({
      emulatorUrl,
      shards: options.prometheus ? collectorShardsFor(ports) : 1,
      collectorPort: options.collectorPort,
      // The API's and Prometheus' scrapes, each on its own clock, share one read a sweep.
      ...(twoScrapers ? { shareReadMs: intervalMs / 2 } : {}),
    });
    stops.push(() => collector.stop());
    const { collectorUrls } = collector.urls;
    const alertmanager =
      options.prometheus && options.alertmanager ? await startAlertmanager(options.alertmanager) : undefined;
    if (alertmanager) stops.push(() => alertmanager.stop());
    const prometheus = options.prometheus
      ? await supervisePrometheus({
          alertmanagers: [alertmanager?.url, options.alertmanagerUrl].filter((url): url is string => !!url),
          targets: collectorUrls.map((url) => new URL(url).host),
          scrapeIntervalMs: intervalMs,
          remoteWrite: options.remoteWrite,
          slowJob: options.prometheusSlowJob ?? prometheusRawJobFor(ports),
          port: options.prometheusPort,
        })
      : undefined;
    if (prometheus) stops.push(() => prometheus.stop());

    const config: ApiConfig = {
      ...options.config,
      emulatorUrl,
      collectorUrls,
      prometheusUrl: options.readPromqlFrom ?? prometheus?.url ?? options.config.prometheusUrl,
      liveSource,
      sampleIntervalMs: intervalMs,
      ...(prometheus ? { prometheusRateWindow: rateWindowFor(intervalMs) } : {}),
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
      emulatorUrl,
      collectorUrl: collectorUrls[0] as string,
      collectorUrls,
      pipelinePids: { emulator: emulator.pid, collector: collector.pid },
      prometheusUrl: prometheus?.url,
      prometheus,
      alertmanagerUrl: alertmanager?.url,
      api,
      stop,
    };
  });
}
