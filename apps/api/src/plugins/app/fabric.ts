import {
  buildForwardingTables,
  chooseRoutingEngine,
  emptyTables,
  type Fabric,
  type ForwardingTables,
} from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { LinkIndex } from '../../lib/utilization.ts';
import type { SmTablesOrigin } from '../../sm-tables/origin.ts';
import type { DrawnFabric } from '../../topology-live/drawn-fabric.ts';
import type { AppResources, AppSource } from './index.ts';

/**
 * The fabric the API draws, measures and routes over. The followers replace its fields while the
 * API runs: tables after a sweep or from the subnet manager (routing-follower.ts,
 * sm-tables/follower.ts), a re-discovered fabric (topology-live/drawn-fabric.ts).
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
    /** The live object itself: routes read its fields per request and never write them. */
    readonly fabric: Readonly<LiveFabric>;
  }
}

/** The fabric with its tables: the subnet manager's (empty until read) with FABSCOPE_LFTS, else computed. */
function liveFabricOf({ config, fabric, tables }: AppResources): LiveFabric {
  const routed =
    tables ??
    (config.lfts
      ? emptyTables(fabric, 'ibroute')
      : buildForwardingTables(fabric, chooseRoutingEngine(config.routing)));
  return { fabric, tables: routed, linkIndex: new LinkIndex(fabric, config.pmThresholds) };
}

/** Decorates `fabric`: what every route about the fabric's shape, routes and channels reads. */
export const fabricPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    app.decorate('fabric', source.state ? source.state.fabric : liveFabricOf(source.build));
  },
  { name: 'fabric', dependencies: [] },
);
