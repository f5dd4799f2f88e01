import {
  buildForwardingTables,
  chooseRoutingEngine,
  emptyTables,
  type Fabric,
  type ForwardingTables,
} from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type ApiConfig, checkLiveSource, defaultSampleIntervalMs } from './config.ts';
import { emulatorTimeoutMs } from './emulator-client.ts';
import { type EventLog, FileEventLog, MemoryEventLog } from './events/event-log.ts';
import { RecordingEmulatorClient } from './events/recording-emulator.ts';
import { adaptiveRoutingProviderFor } from './fabric-manager/choose-provider.ts';
import { FlowPaths } from './flow-paths.ts';
import { CachedJobSource } from './jobs/cached-source.ts';
import { FileJobSource } from './jobs/file-source.ts';
import type { JobSource } from './jobs/job.ts';
import { SlurmJobSource } from './jobs/slurm-source.ts';
import { LinkIndex } from './lib/link-index.ts';
import { prometheusStaleAfterSeconds } from './lib/staleness.ts';
import type { LiveFabric } from './plugins/index.ts';
import { RoutingFollower } from './routing-follower.ts';
import { Sampler } from './sampler.ts';
import type { SmTablesFollower } from './sm-tables/follower.ts';
import { smTablesFollowerFor } from './sm-tables/from-config.ts';
import { CollectorsBesideTsdb } from './store/collectors-beside-tsdb.ts';
import { EmbeddedStore } from './store/embedded.ts';
import { historyDirFor } from './store/history-file/fabric-dir.ts';
import { PrometheusStore } from './store/prometheus.ts';
import { seriesMappingFor } from './store/series-mapping-config.ts';
import { hasTimeQueries } from './store/time-queries.ts';
import type { MetricsStore } from './store/types.ts';
import { DrawnFabric } from './topology-live/drawn-fabric.ts';
import { liveTopologyFor } from './topology-live/from-config.ts';

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
  options: {
    tables?: ForwardingTables;
    webRoot?: string;
    /** Where log lines go (default stderr) at config.logLevel (FABSCOPE_LOG_LEVEL, default warn). */
    logStream?: NodeJS.WritableStream;
    /** Environment and working directory of the fabric tools the API runs (ibroute, dump_fts). */
    tools?: { env?: NodeJS.ProcessEnv; cwd?: string };
  } = {},
): Promise<RunningApi> {
  // Before anything is opened (the history directory, the events file): a setting that cannot work.
  checkLiveSource(config);
  // With the subnet manager's tables (FABSCOPE_LFTS) none are computed: they start empty until read.
  const tables =
    options.tables ??
    (config.lfts
      ? emptyTables(fabric, 'ibroute')
      : buildForwardingTables(fabric, chooseRoutingEngine(config.routing)));
  const intervalMs = config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
  const linkIndex = new LinkIndex(fabric, config.pmThresholds);
  // The embedded store's history on disk, in the fabric's own directory (docs/history.md); the
  // events beside it unless FABSCOPE_EVENTS_DIR says where.
  const historyDir = config.prometheusUrl
    ? null
    : historyDirFor(config.dataDir ?? config.defaultDataDir, linkIndex);
  const eventsDir = config.eventsDir ?? historyDir?.path;
  const events: EventLog = eventsDir ? new FileEventLog(eventsDir) : new MemoryEventLog();
  let store: MetricsStore;
  const embeddedStore = (history: boolean) => {
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
      historyMaxBytes: config.historyMaxBytes,
      historyDir: history ? (historyDir ?? undefined) : undefined,
      events: history ? events : undefined,
    });
    embedded.start();
    return embedded;
  };
  if (config.prometheusUrl) {
    const tsdb = new PrometheusStore({
      url: config.prometheusUrl,
      rateWindow: config.prometheusRateWindow,
      mapping: seriesMappingFor(config, fabric),
      scrapeIntervalMs: intervalMs,
      staleAfterSeconds: prometheusStaleAfterSeconds(intervalMs),
      timeoutMs: Math.max(5000, 2 * intervalMs),
      maxConcurrentQueries: config.tsdbMaxConcurrentQueries,
    });
    // The live view from the collectors, history and alerts from the TSDB (collectors-beside-tsdb.ts).
    store = config.liveSource === 'collectors' ? new CollectorsBesideTsdb(embeddedStore(false), tsdb) : tsdb;
  } else {
    store = embeddedStore(true);
  }
  const sampler = new Sampler(store, linkIndex, intervalMs);
  const emulator = config.emulatorUrl
    ? new RecordingEmulatorClient(
        config.emulatorUrl,
        config.emulatorTimeoutMs ?? emulatorTimeoutMs(fabric.nodes.filter((n) => n.type === 'host').length),
        config.apiToken,
        events,
      )
    : null;
  const adaptiveRouting = adaptiveRoutingProviderFor(config, emulator, events, fabric);
  // One object, read by the routes (the `fabric` decorator) and replaced into by the followers below.
  const live: LiveFabric = { fabric, tables, linkIndex };
  const flowPaths = emulator ? new FlowPaths(emulator, sampler) : undefined;
  // Topology versions and drift; on a real fabric re-discovered on a schedule and after port changes,
  // and what discovery adds drawn (cables, nodes, moves, rates) without a restart.
  let smTables: SmTablesFollower | null = null;
  const drawn = new DrawnFabric(live, {
    events,
    // The subnet manager's tables are read again for the grown fabric (the ones before serve
    // meanwhile: the nodes drawn before keep their indices); fabscope's own are computed again.
    retable: (grown, before) => {
      if (!smTables) return buildForwardingTables(grown, chooseRoutingEngine(config.routing));
      queueMicrotask(() => void smTables?.reread());
      return { ...before, bySwitch: grown.nodes.map((_, i) => before.bySwitch[i]) };
    },
    onSwap: (index) => {
      // Now, so that the embedded store records the new drawing's history from its first tick.
      if (hasTimeQueries(store)) store.timeQueries(index);
      sampler.useIndex(index);
    },
  });
  const topology = liveTopologyFor(config, fabric, events, {
    tools: options.tools,
    onDiscovered: (snapshot, timeMs) => drawn.observe(snapshot, timeMs),
  });
  if (topology.live.live) live.drawn = drawn;
  // The tables follow the subnet manager's (FABSCOPE_LFTS), else the emulated fabric manager's sweeps.
  smTables = config.lfts ? await smTablesFollowerFor(config.lfts, live, events, options.tools) : null;
  const follower = emulator && !smTables ? new RoutingFollower(live, emulator, intervalMs) : null;
  const app = await buildApp({
    state: {
      fabric: live,
      store,
      sampler,
      emulator,
      flowPaths,
      adaptiveRouting,
      jobs: jobSourceFor(config) ?? undefined,
      events,
      topologyLive: topology.live,
    },
    listenHost: config.host,
    apiToken: config.apiToken,
    allowedHosts: config.allowedHosts,
    requestTimeoutMs: config.requestTimeoutMs,
    webRoot: options.webRoot,
    // In every mode, the demo's too: a 5xx always leaves its line on stderr.
    logger: { level: config.logLevel ?? 'warn', stream: options.logStream },
  });
  sampler.start();
  follower?.start();
  topology.live.start();
  const address = await app.listen({ host: config.host, port: config.port });
  return {
    app,
    url: address,
    store,
    sampler,
    async close() {
      flowPaths?.stop();
      await follower?.stop();
      await smTables?.stop();
      await topology.stop();
      await sampler.stop();
      await app.close();
      await store.close();
      historyDir?.release();
    },
  };
}

function jobSourceFor(config: ApiConfig): JobSource | null {
  const jobs = config.jobs;
  if (!jobs) return null;
  // Every dashboard panel asks for jobs: squeue runs (and the file is read) at most every 5 s.
  if (jobs.kind === 'file') return new CachedJobSource(new FileJobSource(jobs.path));
  return new CachedJobSource(
    new SlurmJobSource({ command: jobs.command, format: jobs.format, timeoutMs: jobs.timeoutMs }),
  );
}
