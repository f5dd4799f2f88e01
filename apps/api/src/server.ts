import { buildForwardingTables, type Fabric, type ForwardingTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type ApiConfig, defaultSampleIntervalMs } from './config.ts';
import { type EventLog, FileEventLog, MemoryEventLog } from './events/event-log.ts';
import { RecordingEmulatorClient } from './events/recording-emulator.ts';
import { LinkIndex } from './lib/utilization.ts';
import { Sampler } from './sampler.ts';
import { EmbeddedStore } from './store/embedded.ts';
import { PrometheusStore } from './store/prometheus.ts';
import { seriesMappingFor } from './store/series-mapping-config.ts';
import type { MetricsStore } from './store/types.ts';

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  store: MetricsStore;
  sampler: Sampler;
  close(): Promise<void>;
}

/** Builds the store, the sampler and the app from a config, and listens. */
export async function startApi(
  config: ApiConfig,
  fabric: Fabric,
  options: { tables?: ForwardingTables; webRoot?: string; logger?: boolean } = {},
): Promise<RunningApi> {
  const tables = options.tables ?? buildForwardingTables(fabric, config.routing ?? 'auto');
  const intervalMs = config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
  const events: EventLog = config.eventsDir ? new FileEventLog(config.eventsDir) : new MemoryEventLog();
  let store: MetricsStore;
  if (config.prometheusUrl) {
    store = new PrometheusStore({
      url: config.prometheusUrl,
      rateWindow: config.prometheusRateWindow,
      mapping: seriesMappingFor(config, fabric),
      scrapeIntervalMs: intervalMs,
    });
  } else {
    if (config.collectorUrls.length === 0) {
      throw new Error(
        'the embedded store needs collectors to scrape: set FABSCOPE_COLLECTOR_URLS or PROMETHEUS_URL',
      );
    }
    const embedded = new EmbeddedStore({
      targets: config.collectorUrls,
      scrapeIntervalMs: intervalMs,
      mapping: seriesMappingFor(config, fabric),
      historySeconds: config.historySeconds,
      events,
    });
    embedded.start();
    store = embedded;
  }
  const linkIndex = new LinkIndex(fabric);
  const sampler = new Sampler(store, linkIndex, intervalMs);
  const emulator = config.emulatorUrl
    ? new RecordingEmulatorClient(config.emulatorUrl, 5000, config.apiToken, events)
    : null;
  const app = await buildApp({
    ctx: { fabric, tables, linkIndex, store, sampler, emulator, events },
    listenHost: config.host,
    apiToken: config.apiToken,
    webRoot: options.webRoot,
    logger: options.logger ?? false,
  });
  sampler.start();
  const address = await app.listen({ host: config.host, port: config.port });
  return {
    app,
    url: address,
    store,
    sampler,
    async close() {
      await sampler.stop();
      await app.close();
      await store.close();
    },
  };
}
