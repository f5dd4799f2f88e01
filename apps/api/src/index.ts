export type { LinkDirectionState } from '@fabscope/contracts';
export { type AppOptions, buildApp } from './app.ts';
export { isLoopbackHost } from './auth.ts';
export {
  type ApiConfig,
  ConfigError,
  configFromEnv,
  defaultSampleIntervalMs,
  FABRIC_SOURCE_KINDS,
  type FabricSourceKind,
  type LiveSource,
} from './config.ts';
export { EmulatorClient, UpstreamError } from './emulator-client.ts';
export { statesOf } from './lib/frame.ts';
export { frameOf } from './lib/frame-from-rates.ts';
export { LinkIndex } from './lib/link-index.ts';
export { prometheusStaleAfterSeconds } from './lib/staleness.ts';
export { summarizeFrame } from './lib/summary.ts';
export type { AppState, LiveFabric } from './plugins/app-source.ts';
export { Sampler, type Tick } from './sampler.ts';
export { type RunningApi, startApi } from './server.ts';
export { counterRate } from './store/counter-rate.ts';
export { EmbeddedStore } from './store/embedded.ts';
export { EmbeddedTimeQueries } from './store/embedded-history.ts';
export { parseExposition } from './store/exposition.ts';
export { PrometheusStore } from './store/prometheus.ts';
export { EDGE_SERIES, PrometheusTimeQueries } from './store/prometheus-history.ts';
export { liveQueries, NEWEST_SWEEP } from './store/prometheus-live.ts';
export { DEFAULT_MAX_CONCURRENT_QUERIES, PromqlClient, QueryGate } from './store/promql-client.ts';
export type { TimeQueries } from './store/time-queries.ts';
export type { MetricsStore, PortRates, RatesSnapshot } from './store/types.ts';
