import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { adaptiveRoutingProviderFor } from '../fabric-manager/choose-provider.ts';
import type { AdaptiveRoutingProvider } from '../fabric-manager/provider.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who reads and changes adaptive routing: the emulator's fabric manager, opafm.xml, or none (why). */
    readonly adaptiveRouting: AdaptiveRoutingProvider;
  }
}

/**
 * Decorates `adaptiveRouting` with the provider the composition root chose from the config
 * (fabric-manager/choose-provider.ts); an app built without one (tests) gets the emulator's, or none.
 */
export const adaptiveRoutingPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { provider?: AdaptiveRoutingProvider | undefined }) => {
    app.decorate('adaptiveRouting', options.provider ?? adaptiveRoutingProviderFor({}, app.emulator));
  },
  { name: 'adaptive-routing', dependencies: ['emulator'] },
);
