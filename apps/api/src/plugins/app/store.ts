import type { Fabric } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type ApiConfig, errorScrapeIntervalMs, sampleIntervalMs } from '../../config.ts';
import { prometheusStaleAfterSeconds } from '../../lib/staleness.ts';
import { Sampler } from '../../sampler.ts';
import { CollectorsBesideTsdb } from '../../store/collectors-beside-tsdb.ts';
import { EmbeddedStore } from '../../store/embedded.ts';
import { PrometheusStore } from '../../store/prometheus.ts';
import { seriesMappingFor } from '../../store/series-mapping-config.ts';
import type { MetricsStore } from '../../store/types.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the counters' rates are read (embedded or Prometheus), and its history when it keeps one. */
    readonly store: MetricsStore;
    /** The live tick, once per sampling interval, shared by every route and stream client. */
    readonly sampler: Sampler;
  }
}

/** Prometheus' store with PROMETHEUS_URL (live view from the collectors if asked), else the embedded one. */
function storeOf(app: FastifyInstance, config: ApiConfig, fabric: Fabric, intervalMs: number): MetricsStore {
  const embedded = (withHistory: boolean) => {
    if (config.collectorUrls.length === 0) {
      throw new Error(
        'the embedded store needs collectors to scrape: set FABSCOPE_COLLECTOR_URLS or PROMETHEUS_URL',
      );
    }
    const store = new EmbeddedStore({
      targets: config.collectorUrls,
      scrapeIntervalMs: intervalMs,
      errorIntervalMs: errorScrapeIntervalMs(fabric),
      mapping: seriesMappingFor(config, fabric),
      historySeconds: config.historySeconds,
      historyMaxBytes: config.historyMaxBytes,
      historyDir: withHistory ? (app.historyDir ?? undefined) : undefined,
      events: withHistory ? (app.events ?? undefined) : undefined,
    });
    store.start();
    return store;
  };
  if (!config.prometheusUrl) return embedded(true);
  const tsdb = new PrometheusStore({
    url: config.prometheusUrl,
    rateWindow: config.prometheusRateWindow,
    mapping: seriesMappingFor(config, fabric),
    scrapeIntervalMs: intervalMs,
    staleAfterSeconds: prometheusStaleAfterSeconds(intervalMs),
    timeoutMs: Math.max(5000, 2 * intervalMs),
    maxConcurrentQueries: config.tsdbMaxConcurrentQueries,
  });
  return config.liveSource === 'collectors' ? new CollectorsBesideTsdb(embedded(false), tsdb) : tsdb;
}

/** Decorates `store` and `sampler` (one plugin: the sampler ticks on the store's clock). */
export const storePlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    if (source.state) {
      app.decorate('store', source.state.store);
      app.decorate('sampler', source.state.sampler);
      return;
    }
    const { config, fabric } = source.build;
    const intervalMs = sampleIntervalMs(config, fabric);
    const store = storeOf(app, config, fabric, intervalMs);
    app.addHook('onClose', async () => store.close());
    const sampler = new Sampler(store, app.fabric.linkIndex, intervalMs);
    app.decorate('store', store);
    app.decorate('sampler', sampler);
    app.addHook('onReady', async () => sampler.start());
    app.addHook('preClose', async () => sampler.stop());
  },
  { name: 'store', dependencies: ['fabric', 'data-dir', 'events'] },
);
