import type { Fabric, ForwardingTables } from '@fabscope/topology';
import type { ApiConfig } from '../config.ts';
import type { EmulatorClient } from '../emulator-client.ts';
import type { EventLog } from '../events/event-log.ts';
import type { AdaptiveRoutingProvider } from '../fabric-manager/provider.ts';
import type { FlowPaths } from '../flow-paths.ts';
import type { JobSource } from '../jobs/job.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { PortOptics } from '../routes/port/port-optics.ts';
import type { Sampler } from '../sampler.ts';
import type { SmTablesOrigin } from '../sm-tables/origin.ts';
import type { MetricsStore } from '../store/types.ts';
import type { DrawnFabric } from '../topology-live/drawn-fabric.ts';
import type { LiveTopology } from '../topology-live/live-topology.ts';
import type { FabricTools } from '../topology-live/subnets.ts';

/** The fabric the API draws, measures and routes over; the followers replace its fields as the API runs. */
export interface LiveFabric {
  fabric: Fabric;
  tables: ForwardingTables;
  /** The subnet manager's, when `tables` are (replaced with them); absent: computed by fabscope. */
  tablesOrigin?: SmTablesOrigin;
  linkIndex: LinkIndex;
  /** The topology drawn, following discovery; absent: the fabric stays as loaded. */
  drawn?: DrawnFabric;
}

/** The app's parts as a caller (tests) built them: decorated as given, neither started nor stopped. */
export interface AppState {
  /** Shared with the followers that replace its fields (fabric.ts). */
  fabric: LiveFabric;
  store: MetricsStore;
  sampler: Sampler;
  /** Absent on a real fabric: traffic and fault control need an emulator. */
  emulator: EmulatorClient | null;
  flowPaths?: FlowPaths | undefined;
  /** Absent: the emulator's fabric manager, or none. */
  adaptiveRouting?: AdaptiveRoutingProvider | undefined;
  /** Absent: the emulator's traffic, or none. */
  jobs?: JobSource | undefined;
  /** Absent: the store's own events only, and no alarms. */
  events?: EventLog | undefined;
  topologyLive?: LiveTopology | undefined;
  /** Absent: no source reads the ports' optics. */
  portOptics?: PortOptics | undefined;
}

/** What the app builds its parts from (startApi): each plugin builds its own, starts it and closes it. */
export interface AppResources {
  config: ApiConfig;
  fabric: Fabric;
  /** Default: the subnet manager's (FABSCOPE_LFTS, empty until read), else computed. */
  tables?: ForwardingTables | undefined;
  /** Environment and working directory of the fabric tools the API runs (ibroute, dump_fts), and its subnets. */
  tools?: FabricTools | undefined;
}

/** Every app plugin's options: the parts handed in, or what to build them from. */
export type AppSource = { state: AppState; build?: undefined } | { build: AppResources; state?: undefined };
