import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { adaptiveRoutingProviderFor } from '../../fabric-manager/choose-provider.ts';
import type { AdaptiveRoutingProvider } from '../../fabric-manager/provider.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who reads and changes adaptive routing: the emulator's fabric manager, opafm.xml, or none (why). */
    readonly adaptiveRouting: AdaptiveRoutingProvider;
  }
}

/** Decorates `adaptiveRouting` with the provider the config chooses; handed-in parts default to the emulator's. */
export const adaptiveRoutingPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    const provider = source.state
      ? (source.state.adaptiveRouting ?? adaptiveRoutingProviderFor({}, app.emulator))
      : adaptiveRoutingProviderFor(
          source.build.config,
          app.emulator,
          app.events ?? undefined,
          source.build.fabric,
        );
    app.decorate('adaptiveRouting', provider);
  },
  { name: 'adaptive-routing', dependencies: ['emulator', 'events'] },
);
