import type { FastifyInstance } from 'fastify';
import type { AppSource } from '../app-source.ts';
import { adaptiveRoutingPlugin } from './adaptive-routing.ts';
import { alarmsPlugin } from './alarms.ts';
import { dataDirPlugin } from './data-dir.ts';
import { emulatorPlugin } from './emulator.ts';
import { eventsPlugin } from './events.ts';
import { fabricPlugin } from './fabric.ts';
import { followersPlugin } from './followers.ts';
import { jobsPlugin } from './jobs.ts';
import { portOpticsPlugin } from './port-optics.ts';
import { storePlugin } from './store.ts';
import { timeTravelPlugin } from './time-travel.ts';
import { topologyLivePlugin } from './topology-live.ts';

export type { AppResources, AppSource, AppState, LiveFabric } from '../app-source.ts';

/** The application's layer (fastify/demo's `plugins/app`): one fastify-plugin per part, naming what it needs. */
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
    portOpticsPlugin,
  ]) {
    await app.register(plugin, source);
  }
}
