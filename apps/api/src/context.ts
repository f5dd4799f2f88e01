import type { Fabric, ForwardingTables } from '@fabscope/topology';
import type { EmulatorClient } from './emulator-client.ts';
import type { Alarms } from './events/alarms.ts';
import type { EventLog } from './events/event-log.ts';
import type { AdaptiveRoutingProvider } from './fabric-manager/provider.ts';
import type { FlowPaths } from './flow-paths.ts';
import type { JobSource } from './jobs/job.ts';
import type { LinkIndex } from './lib/utilization.ts';
import type { Sampler } from './sampler.ts';
import type { SmTablesOrigin } from './sm-tables/origin.ts';
import type { MetricsStore } from './store/types.ts';
import type { DrawnFabric } from './topology-live/drawn-fabric.ts';
import type { LiveTopology } from './topology-live/live-topology.ts';

/**
 * What the routes work on: built at start, shared by every request. `fabric`, `linkIndex` and
 * `tables` may be replaced while running (a re-route, a re-discovered fabric): read them per request.
 */
export interface ApiContext {
  fabric: Fabric;
  tables: ForwardingTables;
  /** The subnet manager's, when `tables` are (replaced with them); absent: computed by fabscope. */
  tablesOrigin?: SmTablesOrigin;
  linkIndex: LinkIndex;
  store: MetricsStore;
  sampler: Sampler;
  /** Absent on a real fabric: traffic and fault control need an emulator. */
  emulator: EmulatorClient | null;
  /** The emulator's flows by their ends, read once per tick for `/route` (flow-paths.ts). */
  flowPaths?: FlowPaths;
  /**
   * Who reads and changes adaptive routing (fabric-manager/choose-provider.ts); absent: the
   * emulator's fabric manager, or none.
   */
  adaptiveRouting?: AdaptiveRoutingProvider;
  /** Where jobs come from (squeue, a jobs file); absent: the emulator's traffic, or none. */
  jobs?: JobSource;
  /** Changes and incidents for `GET /events`; absent: the store's own events only. */
  events?: EventLog;
  /** Grouped alarms with a lifecycle, fed by the health watch (events/alarms.ts). */
  alarms?: Alarms;
  /** Topology versions, discovery and drift (topology-live/); absent: the loaded topology only. */
  topologyLive?: LiveTopology;
  /**
   * The topology drawn, following discovery (topology-live/drawn-fabric.ts): it swaps `fabric`,
   * `linkIndex` and `tables` when discovery adds to them; absent: they stay as loaded.
   */
  drawn?: DrawnFabric;
}
