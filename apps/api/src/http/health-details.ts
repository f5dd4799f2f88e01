import type { FastifyInstance } from 'fastify';
import { isLoopbackHost, tokenMatches } from '../auth.ts';

/** Whether a request may see internal details (store URLs): from this machine, or with the token. */
export function seesInternals(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  apiToken: string | undefined,
): boolean {
  if (remoteAddress !== undefined && isLoopbackHost(remoteAddress)) return true;
  return apiToken !== undefined && tokenMatches(authorization, apiToken);
}

/** `/health` adds under-pressure's event-loop figures, and the store's detailed error for those who see internals. */
export function installHealthDetails(app: FastifyInstance, apiToken: string | undefined): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.routeOptions.url !== '/api/v1/health' || reply.statusCode !== 200) return payload;
    const { eventLoopDelay, eventLoopUtilized } = app.memoryUsage();
    const health = {
      ...(payload as object),
      eventLoopDelayMs: Math.round(eventLoopDelay * 10) / 10,
      eventLoopUtilization: Math.round(eventLoopUtilized * 1000) / 1000,
    };
    if (!seesInternals(request.socket.remoteAddress, request.headers.authorization, apiToken)) return health;
    const detailed = app.sampler.healthNow().detailedError;
    return detailed === undefined ? health : { ...health, error: detailed };
  });
}
