import { HealthSchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The store's kind and the newest sample's age; the event loop's figures are added by app.ts. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    { schema: { summary: 'Store kind and age of the newest sample', response: { 200: HealthSchema } } },
    async () => {
      const { health } = await app.sampler.current();
      return {
        ...health,
        ...(app.topologyLive ? { topology: app.topologyLive.healthNote() } : {}),
        ...(app.smPresence ? { subnetManager: app.smPresence.health() } : {}),
      };
    },
  );
};
