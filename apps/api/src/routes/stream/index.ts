import type { ServerResponse } from 'node:http';
import { ErrorReply } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_SKIPPED_TICKS, SseClient } from '../../lib/sse-client.ts';
import { acceptsDeflate, deflateFrame, type StreamEncoding, ZLIB_HEADER } from '../../lib/sse-deflate.ts';
import { STREAM_VIEWS, TickBroadcast } from '../../tick-broadcast.ts';

const StreamQuery = Type.Object(
  {
    view: Type.Optional(
      Type.Union(
        STREAM_VIEWS.map((v) => Type.Literal(v)),
        {
          description:
            'compact (default): per-channel arrays in topology order, a size any fabric can afford. ' +
            'full: every link direction as an object, for small fabrics',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const DESCRIPTION = [
  'One `data:` message per sampling tick; each encoding is serialized once per tick and the same bytes are',
  'written to all its clients, only while one is connected. A client whose socket has not drained the',
  `previous tick skips the next; after ${MAX_SKIPPED_TICKS} skipped in a row it gets \`event: dropped\` with a reason`,
  'and is disconnected. `health` carries `intervalMs` and `staleAfterSeconds`, the staleness policy.',
  'A client whose Accept-Encoding takes `deflate` gets `Content-Encoding: deflate`, each tick compressed once for all.',
  "The messages are the contract's CompactStreamMessage (`view=compact`, default: per-channel arrays in",
  'topology order and the busiest directions as objects) or FullStreamMessage (`view=full`: every direction).',
].join('\n');

/** Server-sent events: one message per sampling tick, the same bytes (made once per tick) for every client. */
export const streamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const open = new Set<ServerResponse>();
  const broadcast = new TickBroadcast(app.sampler);
  // Streams never finish on their own: end them when the server closes, so shutdown is prompt.
  app.addHook('onClose', async () => {
    broadcast.close();
    for (const raw of open) raw.end();
    open.clear();
  });
  app.get(
    '/stream',
    {
      schema: {
        summary:
          'Server-sent events once per sampling tick: {time, health, summary, utilization[], bytesPerSecond[], ' +
          'waitFraction[], linkDown[], top[]}, or with view=full {time, health, summary, links}',
        description: DESCRIPTION,
        querystring: StreamQuery,
        response: {
          200: {
            description:
              "The event stream: each event's data one JSON message, the contract's CompactStreamMessage or (view=full) FullStreamMessage (written by hand: this documents it)",
            content: { 'text/event-stream': { schema: { type: 'object' } } },
          },
          400: ErrorReply,
        },
      },
    },
    (request, reply) => {
      const view = request.query.view ?? 'compact';
      reply.hijack();
      const raw = reply.raw;
      const encoding: StreamEncoding = acceptsDeflate(request.headers['accept-encoding'])
        ? 'deflate'
        : 'identity';
      const line = encoding === 'deflate' ? deflateFrame : (text: string) => text;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        vary: 'accept-encoding',
        ...(encoding === 'deflate' ? { 'content-encoding': 'deflate' } : {}),
      });
      if (encoding === 'deflate') raw.write(ZLIB_HEADER);
      raw.write(line('retry: 2000\n\n'));
      open.add(raw);
      let unsubscribe: () => void = () => undefined;
      const client = new SseClient(raw, MAX_SKIPPED_TICKS, () => unsubscribe(), line);
      unsubscribe = broadcast.subscribe((frame) => client.send(frame), view, encoding);
      const keepAlive = setInterval(() => client.keepAlive(), 15_000);
      request.raw.on('close', () => {
        clearInterval(keepAlive);
        unsubscribe();
        open.delete(raw);
      });
    },
  );
};
