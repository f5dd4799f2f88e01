export { adaptivePaths } from './analysis/adaptive.ts';
export {
  type AdaptiveEstimate,
  type AnalyzeOptions,
  analyzeContention,
  analyzeFlows,
  type ContentionAnalysis,
  type FlowRate,
  type IslCollision,
  type LinkLoad,
  MAX_ADAPTIVE_FLOWS,
  RDMA_PAYLOAD_EFFICIENCY,
} from './analysis/contention.ts';
export {
  type CounterRateLimits,
  counterRate,
  DATA_RATE_SPIKE_FACTOR,
  SATURATION_CEILINGS,
} from './analysis/counter-rate.ts';
export {
  CONGESTION_COUNTERS,
  categoryConfigFor,
  type DirectionTraffic,
  directionCategories,
  directionErrors,
  directionTraffic,
  ERROR_COUNTER_GROUPS,
  errorsPerSecond,
  LINK_ERROR_FIELDS,
  LINK_ERROR_GAUGES,
  type LinkErrorField,
  type LinkErrorRates,
  maxKnown,
  measuresWaitAndCategories,
  type PortErrorRates,
  type PortRateReading,
  UNKNOWN_CATEGORIES,
  UNKNOWN_ERRORS,
  utilizationOf,
  waitFraction,
} from './analysis/link-direction.ts';
export { type MaxMinProblem, maxMinFair } from './analysis/max-min.ts';
export {
  type CollectivePattern,
  collectivePairs,
  derangement,
  MAX_FLOWS,
  PatternError,
  parsePattern,
  patternEndpoint,
  patternFlows,
  patternHosts,
  type TrafficPattern,
  UnknownHostError,
} from './analysis/patterns.ts';
export {
  CATEGORY_NAMES,
  type CategoryInputs,
  type CategoryName,
  type CategoryValues,
  categoriesOf,
  categoryBucket,
  DEFAULT_PM_THRESHOLDS,
  type PmThresholdConfig,
  SEVERITY_LEVELS,
  type Severity,
  severityOf,
  type TrafficInputs,
} from './analysis/pm-categories.ts';
export { mulberry32, type Random, randomIndex } from './analysis/random.ts';
export { describeTopologyChange, endText, linkText, summarizeTopologyChanges } from './changes/describe.ts';
export {
  applyTopologyChanges,
  diffFabrics,
  diffTopology,
  linkKey,
  TOPOLOGY_CHANGE_KINDS,
  type TopologyChange,
  type TopologyChangeKind,
} from './changes/diff.ts';
export { drawnTopology } from './changes/drawn.ts';
export { DRIFT_KINDS, type DriftFinding, type DriftKind, topologyDrift } from './changes/drift.ts';
export {
  fabricOfSnapshot,
  nodeIdentities,
  type TopologyEnd,
  type TopologyLinkRecord,
  type TopologyNodeRecord,
  type TopologySnapshot,
  topologySnapshot,
} from './changes/snapshot.ts';
export { type TwoTierFatTreeOptions, twoTierFatTree } from './generators/fat-tree.ts';
export { type ThreeTierFatTreeOptions, threeTierFatTree } from './generators/fat-tree-3.ts';
export { type FatTreeForRadixOptions, fatTreeForRadix } from './generators/fat-tree-radix.ts';
export {
  buildScenario,
  type ScenarioInfo,
  scenarioInfo,
  scenarioNames,
  scenarios,
} from './generators/scenarios.ts';
export { FabricBuilder, type LinkOptions, type NodeSpec } from './model/builder.ts';
export {
  INFINIBAND_LANE_DATA_GBPS,
  infinibandDataRateGbps,
  infinibandWidthSpeed,
  linkDataBytesPerSecond,
  linkDataRateGbps,
} from './model/data-rate.ts';
export { findNode } from './model/find-node.ts';
export { type FabricGraph, fabricGraph, lidsOf } from './model/graph.ts';
export { formatGuid, generatedGuid, normalizeGuid } from './model/guid.ts';
export {
  DEFAULT_LATENCY_MODEL,
  type LatencyBreakdown,
  type LatencyModel,
  routeLatency,
} from './model/latency.ts';
export {
  bytesPerSecondOfRate,
  type Channel,
  channelFrom,
  channelId,
  channelOf,
  type Fabric,
  type FabricLink,
  type FabricNode,
  type FabricPort,
  type FabricType,
  getNode,
  type LinkKind,
  type LinkWidthSpeed,
  type NodeType,
  type PortRef,
  UnknownNodeError,
} from './model/model.ts';
export { excerpt, ParseError, type ParseLocation, parsingFile, printable } from './parse/errors.ts';
export { parseIbnetdiscover } from './parse/ibnetdiscover.ts';
export { detectTopologyFormat, parseTopology, TOPOLOGY_FORMATS, type TopologyFormat } from './parse/index.ts';
export { MAX_LINE_LENGTH, textLines } from './parse/lines.ts';
export { parseOpareportTopology } from './parse/opareport.ts';
export { parsePmThresholds } from './parse/pm-thresholds.ts';
export {
  type IbNodeType,
  type IbPortEnd,
  type IbPortLine,
  type IbPortsReport,
  parsePortsReport,
  parsePortsReportLines,
  readPortsReport,
} from './parse/ports-report.ts';
export { LANE_GBPS, parseWidthSpeed, rateOfWidthSpeed } from './parse/rates.ts';
export { STDERR_LINE } from './parse/stderr.ts';
export {
  buildForwardingTables,
  chooseRoutingEngine,
  isRoutingEngine,
  ROUTING_ENGINES,
  type RoutingEngineName,
  routingFor,
} from './routing/engines.ts';
export { RoutingError } from './routing/errors.ts';
export { fatTreeRouting } from './routing/fattree.ts';
export { applyIbroute, type IbrouteOptions, switchesWithoutDump } from './routing/ibroute.ts';
export { LOWEST_PORT_MIN_HOP, lowestPortMinHopRouting } from './routing/lowest-port.ts';
export { minHopRouting } from './routing/minhop.ts';
export {
  NoRouteError,
  type Route,
  type RouteHop,
  routeBetween,
  routeChannels,
  routeOfChannels,
} from './routing/route.ts';
export {
  describeRoute,
  formatOpareportRoute,
  type RouteReport,
  type RouteReportHop,
} from './routing/route-report.ts';
export { type StaticRouteLoad, staticRouteLoad, staticRouteLoadSteps } from './routing/static-load.ts';
export {
  type StaticLoadComparison,
  type StaticLoadDirection,
  type StaticLoadGroup,
  type StaticLoadPort,
  summarizeStaticLoad,
} from './routing/static-load-summary.ts';
export { survivingFabric, sweepTables, tablesAfterSweep } from './routing/sweep.ts';
export {
  emptyTables,
  type ForwardingTables,
  NO_ROUTE,
  type TableSource,
  tableSource,
} from './routing/tables.ts';
export { traceChannels } from './routing/trace.ts';
