import type { Fabric, ForwardingTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../../config.ts';
import type { EmulatorClient } from '../../emulator-client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { AdaptiveRoutingProvider } from '../../fabric-manager/provider.ts';
import type { FlowPaths } from '../../flow-paths.ts';
import type { JobSource } from '../../jobs/job.ts';
import type { Sampler } from '../../sampler.ts';
import type { MetricsStore } from '../../store/types.ts';
import type { LiveTopology } from '../../topology-live/live-topology.ts';
import { adaptiveRoutingPlugin } from './adaptive-routing.ts';
import { alarmsPlugin } from './alarms.ts';
import { dataDirPlugin } from './data-dir.ts';
import { emulatorPlugin } from './emulator.ts';
import { eventsPlugin } from './events.ts';
import { fabricPlugin, type LiveFabric } from './fabric.ts';
import { followersPlugin } from './followers.ts';
import { jobsPlugin } from './jobs.ts';
import { storePlugin } from './store.ts';
import { timeTravelPlugin } from './time-travel.ts';
import { topologyLivePlugin } from './topology-live.ts';

export type { LiveFabric } from './fabric.ts';

/**
 * The app's parts as a caller built them (tests): each decorated as given, and neither started
 * nor stopped by the app. Optional parts are absent where the site has none.
 */
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
}

/** What the app builds its parts from (startApi): each plugin builds its own, starts it and closes it. */
export interface AppResources {
  config: ApiConfig;
  fabric: Fabric;
  /** Default: the subnet manager's (FABSCOPE_LFTS, empty until read), else computed. */
  tables?: ForwardingTables | undefined;
  /** Environment and working directory of the fabric tools the API runs (ibroute, dump_fts). */
  tools?: { env?: NodeJS.ProcessEnv; cwd?: string } | undefined;
}

/** Every app plugin's options: the parts handed in, or what to build them from. */
export type AppSource = { state: AppState; build?: undefined } | { build: AppResources; state?: undefined };

/**
 * The application's layer, between the external plugins and the routes (fastify/demo's
 * `plugins/app`): one fastify-plugin per part, naming the plugins it needs. Built parts are
 * stopped in `preClose` and closed in `onClose`, which Fastify runs last-registered first.
 */
export async function registerAppPlugins(app: FastifyInstance, source: AppSource): Promise<void> {
  for (const plugin of [
    fabricPlugin,
    dataDirPlugin,
    eventsPlugin,
    storePlugin,
    timeTravelPlugin,
    emulatorPlugin,
    adaptiveRoutingPlugin,
    jobsPlugin,
    alarmsPlugin,
    topologyLivePlugin,
    followersPlugin,
  ]) {
    await app.register(plugin, source);
  }
}
