export { FabricBuilder, type NodeSpec } from './builder.ts';
export { type TwoTierFatTreeOptions, twoTierFatTree } from './fat-tree.ts';
export { formatGuid, generatedGuid } from './guid.ts';
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
  type NodeType,
  type PortRef,
  UnknownNodeError,
} from './model.ts';
export { NoRouteError, type Route, type RouteHop, routeBetween, routeChannels } from './route.ts';
export { fatTreeRouting } from './routing/fattree.ts';
export { emptyTables, type ForwardingTables, NO_ROUTE } from './routing/tables.ts';
export { buildScenario, type ScenarioInfo, scenarioNames, scenarios } from './scenarios.ts';
