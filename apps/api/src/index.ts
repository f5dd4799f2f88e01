export type { LinkDirectionState } from '@fabscope/contracts';
export {
  type ApiConfig,
  configFromEnv,
  defaultSampleIntervalMs,
  type LiveSource,
} from './config.ts';
export type { Job } from './jobs/job.ts';
export { estimatedFlows } from './jobs/job-flows.ts';
export { jobFabricReport } from './jobs/report/job-fabric-report.ts';
export { statesOf } from './lib/frame.ts';
export { frameOf } from './lib/frame-from-rates.ts';
export { LinkIndex } from './lib/link-index.ts';
export { prometheusStaleAfterSeconds } from './lib/staleness.ts';
export { summarizeFrame } from './lib/summary.ts';
export { gather as gatherJobReport } from './routes/jobs/report/report-inputs.ts';
export { Sampler } from './sampler.ts';
export { type RunningApi, startApi } from './server.ts';
export { EmbeddedStore } from './store/embedded.ts';
export { PrometheusStore } from './store/prometheus.ts';
export { EDGE_SERIES, PrometheusTimeQueries } from './store/prometheus-history.ts';
export { liveQueries, NEWEST_SWEEP } from './store/prometheus-live.ts';
export { PromqlClient, QueryGate } from './store/promql-client.ts';
export { discoverSubnets } from './topology-live/from-config.ts';
export {
  type LldpCable,
  type LldpFabric,
  type LldpSwitch,
  lldpFabric,
} from './topology-live/lldp-fabric.ts';
export { type FabricTools, type IbSubnet, subnetOfPort } from './topology-live/subnets.ts';
