import { buildForwardingTables, chooseRoutingEngine, emptyTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { LinkIndex } from '../../lib/link-index.ts';
import type { AppResources, AppSource, LiveFabric } from '../app-source.ts';

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
