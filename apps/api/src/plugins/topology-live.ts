import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { LiveTopology } from '../topology-live/live-topology.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Topology versions, discovery and drift (topology-live/); null: the loaded topology only. */
    readonly topologyLive: LiveTopology | null;
  }
}

/** Decorates `topologyLive`, started and stopped by the composition root (server.ts). */
export const topologyLivePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { live?: LiveTopology | undefined }) => {
    app.decorate('topologyLive', options.live ?? null);
  },
  { name: 'topology-live', dependencies: [] },
);
