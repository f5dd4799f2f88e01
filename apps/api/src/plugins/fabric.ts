import type { Fabric, ForwardingTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { LinkIndex } from '../lib/link-index.ts';
import type { SmTablesOrigin } from '../sm-tables/origin.ts';
import type { DrawnFabric } from '../topology-live/drawn-fabric.ts';

/**
 * The fabric the API draws, measures and routes over. Its fields are replaced while the API runs —
 * new tables after a sweep or from the subnet manager (`tables`, `tablesOrigin`: routing-follower.ts,
 * sm-tables/follower.ts), a re-discovered fabric (`fabric`, `linkIndex`, `tables`:
 * topology-live/drawn-fabric.ts) — by the followers the composition root (server.ts) hands this
 * same object to.
 */
export interface LiveFabric {
  fabric: Fabric;
  tables: ForwardingTables;
  /** The subnet manager's, when `tables` are (replaced with them); absent: computed by fabscope. */
  tablesOrigin?: SmTablesOrigin;
  linkIndex: LinkIndex;
  /** The topology drawn, following discovery; absent: the fabric stays as loaded. */
  drawn?: DrawnFabric;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The live object itself, not a copy: a route reads its fields per request (a swap made
     * meanwhile is seen), and only reads them (the followers write).
     */
    readonly fabric: Readonly<LiveFabric>;
  }
}

/** Decorates `fabric`: what every route about the fabric's shape, routes and channels reads. */
export const fabricPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { live: LiveFabric }) => {
    app.decorate('fabric', options.live);
  },
  { name: 'fabric', dependencies: [] },
);
