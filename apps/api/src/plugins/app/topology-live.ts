import { buildForwardingTables, chooseRoutingEngine } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { hasTimeQueries } from '../../store/time-queries.ts';
import { DrawnFabric } from '../../topology-live/drawn-fabric.ts';
import { liveTopologyFor } from '../../topology-live/from-config.ts';
import type { LiveTopology } from '../../topology-live/live-topology.ts';
import type { AppResources, AppSource, LiveFabric } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Topology versions, discovery and drift (topology-live/); null: the loaded topology only. */
    readonly topologyLive: LiveTopology | null;
  }
}

/** The live topology; on a re-discovered fabric the tables, store history and sampler follow what is drawn. */
function liveTopologyOf(app: FastifyInstance, { config, fabric, tools }: AppResources) {
  const live = app.fabric as LiveFabric;
  const drawn = new DrawnFabric(live, {
    events: app.events ?? undefined,
    // The SM's tables are read again for the grown fabric (the old ones serve meanwhile); ours are recomputed.
    retable: (grown, before) => {
      const smTables = app.smTables;
      if (!smTables) return buildForwardingTables(grown, chooseRoutingEngine(config.routing));
      queueMicrotask(() => void smTables.reread());
      return { ...before, bySwitch: grown.nodes.map((_, i) => before.bySwitch[i]) };
    },
    onSwap: (index) => {
      if (hasTimeQueries(app.store)) app.store.timeQueries(index);
      app.sampler.useIndex(index);
    },
  });
  const topology = liveTopologyFor(config, fabric, app.events ?? undefined, {
    tools,
    discover: tools?.discover,
    onDiscovered: (snapshot, timeMs) => drawn.observe(snapshot, timeMs),
  });
  if (topology.live.live) live.drawn = drawn;
  return topology;
}

/** Decorates `topologyLive`; a built one discovers from the app's start until it closes. */
export const topologyLivePlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    if (source.state) {
      app.decorate('topologyLive', source.state.topologyLive ?? null);
      return;
    }
    const topology = liveTopologyOf(app, source.build);
    app.decorate('topologyLive', topology.live);
    app.addHook('onReady', async () => topology.live.start());
    app.addHook('preClose', async () => topology.stop());
  },
  { name: 'topology-live', dependencies: ['fabric', 'events', 'store'] },
);
