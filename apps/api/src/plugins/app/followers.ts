import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { sampleIntervalMs } from '../../config.ts';
import { RoutingFollower } from '../../routing-follower.ts';
import type { SmTablesFollower } from '../../sm-tables/follower.ts';
import { smTablesFollowerFor } from '../../sm-tables/from-config.ts';
import { SmPresenceWatch, sminfoProbe } from '../../sm-tables/sm-presence.ts';
import type { AppSource, LiveFabric } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The follower of the subnet manager's tables (FABSCOPE_LFTS); null: tables computed or swept. */
    readonly smTables: SmTablesFollower | null;
    /** Whether a subnet manager answers (InfiniBand with the SM's tables); null: not asked. */
    readonly smPresence: SmPresenceWatch | null;
  }
}

/** How often the subnet manager is asked whether it is there (sooner when its tables are read more often). */
const SM_CHECK_INTERVAL_MS = 5000;

/** Keeps `fabric.tables` current: the subnet manager's (FABSCOPE_LFTS), else the emulator's sweeps. */
export const followersPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    if (source.state) {
      app.decorate('smTables', null);
      app.decorate('smPresence', null);
      return;
    }
    const { config, fabric, tools } = source.build;
    const live = app.fabric as LiveFabric;
    const events = app.events ?? undefined;
    const smTables = config.lfts ? await smTablesFollowerFor(config.lfts, live, events, tools) : null;
    app.decorate('smTables', smTables);
    if (smTables) app.addHook('preClose', async () => smTables.stop());
    const smPresence =
      smTables && config.fabricSource === 'infiniband'
        ? new SmPresenceWatch(sminfoProbe(tools), {
            intervalMs: Math.min(SM_CHECK_INTERVAL_MS, config.lfts?.intervalMs ?? SM_CHECK_INTERVAL_MS),
            events,
            tablesUnreadable: () => smTables.unreadable(),
          })
        : null;
    app.decorate('smPresence', smPresence);
    if (smPresence) {
      app.addHook('onReady', async () => smPresence.start());
      app.addHook('preClose', async () => smPresence.stop());
    }
    if (!app.emulator || smTables) return;
    const follower = new RoutingFollower(live, app.emulator, sampleIntervalMs(config, fabric));
    app.addHook('onReady', async () => follower.start());
    app.addHook('preClose', async () => follower.stop());
  },
  { name: 'followers', dependencies: ['fabric', 'events', 'emulator', 'topology-live'] },
);
