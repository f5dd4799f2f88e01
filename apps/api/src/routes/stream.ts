import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';

/**
 * Server-sent events: one message per sampling tick, the same serialized tick for every client
 * (computed once by the sampler), so a hundred dashboards cost one computation.
 */
export const streamRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const open = new Set<ServerResponse>();
  // Streams never finish on their own: end them when the server closes, so shutdown is prompt.
  app.addHook('onClose', async () => {
    for (const raw of open) raw.end();
    open.clear();
  });
  app.get(
    '/stream',
    {
      schema: {
        summary: 'Server-sent events: {time, health, summary, links} once per sampling tick',
        produces: ['text/event-stream'],
      },
    },
    (request, reply) => {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 2000\n\n');
      open.add(raw);
      const unsubscribe = ctx.sampler.subscribe((json) => raw.write(`data: ${json}\n\n`));
      // A comment line keeps proxies from closing an idle stream.
      const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      request.raw.on('close', () => {
        clearInterval(keepAlive);
        unsubscribe();
        open.delete(raw);
      });
    },
  );
};
