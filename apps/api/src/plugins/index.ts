import type { FastifyInstance } from 'fastify';
import type { EmulatorClient } from '../emulator-client.ts';
import type { EventLog } from '../events/event-log.ts';
import type { AdaptiveRoutingProvider } from '../fabric-manager/provider.ts';
import type { FlowPaths } from '../flow-paths.ts';
import type { JobSource } from '../jobs/job.ts';
import type { Sampler } from '../sampler.ts';
import type { MetricsStore } from '../store/types.ts';
import type { LiveTopology } from '../topology-live/live-topology.ts';
import { adaptiveRoutingPlugin } from './adaptive-routing.ts';
import { emulatorPlugin } from './emulator.ts';
import { eventsPlugin } from './events.ts';
import { fabricPlugin, type LiveFabric } from './fabric.ts';
import { jobsPlugin } from './jobs.ts';
import { storePlugin } from './store.ts';
import { topologyLivePlugin } from './topology-live.ts';

export type { LiveFabric } from './fabric.ts';

/**
 * What the composition root (server.ts, or a test) builds and the app's decorator plugins hand to
 * the routes, which never see it whole (app.ts reads it only for the answer cache, installed before
 * the decorators). Optional parts are absent where the site has none.
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

/**
 * The application's layer, between the external plugins and the routes (as fastify/demo's
 * `plugins/app`): each piece of state a decorator of the root instance, registered by its own
 * fastify-plugin with its name and the plugins it needs, so a route reads `app.sampler` typed,
 * and a plugin registered before what it needs fails at start, naming it.
 */
export async function registerAppPlugins(app: FastifyInstance, state: AppState): Promise<void> {
  await app.register(fabricPlugin, { live: state.fabric });
  await app.register(storePlugin, { store: state.store, sampler: state.sampler });
  await app.register(emulatorPlugin, { emulator: state.emulator, flowPaths: state.flowPaths });
  await app.register(adaptiveRoutingPlugin, { provider: state.adaptiveRouting });
  await app.register(jobsPlugin, { source: state.jobs });
  await app.register(eventsPlugin, { events: state.events });
  await app.register(topologyLivePlugin, { live: state.topologyLive });
}
