import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { sampleIntervalMs } from '../../config.ts';
import { RoutingFollower } from '../../routing-follower.ts';
import type { SmTablesFollower } from '../../sm-tables/follower.ts';
import { smTablesFollowerFor } from '../../sm-tables/from-config.ts';
import type { AppSource, LiveFabric } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The follower of the subnet manager's tables (FABSCOPE_LFTS); null: tables computed or swept. */
    readonly smTables: SmTablesFollower | null;
  }
}

/** Keeps `fabric.tables` current: the subnet manager's (FABSCOPE_LFTS), else the emulator's sweeps. */
export const followersPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    if (source.state) {
      app.decorate('smTables', null);
      return;
    }
    const { config, fabric, tools } = source.build;
    const live = app.fabric as LiveFabric;
    const events = app.events ?? undefined;
    const smTables = config.lfts ? await smTablesFollowerFor(config.lfts, live, events, tools) : null;
    app.decorate('smTables', smTables);
    if (smTables) app.addHook('preClose', async () => smTables.stop());
    if (!app.emulator || smTables) return;
    const follower = new RoutingFollower(live, app.emulator, sampleIntervalMs(config, fabric));
    app.addHook('onReady', async () => follower.start());
    app.addHook('preClose', async () => follower.stop());
  },
  { name: 'followers', dependencies: ['fabric', 'events', 'emulator', 'topology-live'] },
);
