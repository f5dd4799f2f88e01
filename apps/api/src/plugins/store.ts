import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Sampler } from '../sampler.ts';
import type { MetricsStore } from '../store/types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the counters' rates are read (embedded or Prometheus), and its history when it keeps one. */
    readonly store: MetricsStore;
    /** The live tick, once per sampling interval, shared by every route and stream client. */
    readonly sampler: Sampler;
  }
}

/**
 * Decorates `store` and `sampler`: one plugin, since the sampler ticks on the store's clock. Both
 * are built and started by the composition root (server.ts), which also stops them.
 */
export const storePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { store: MetricsStore; sampler: Sampler }) => {
    app.decorate('store', options.store);
    app.decorate('sampler', options.sampler);
  },
  { name: 'store', dependencies: [] },
);
