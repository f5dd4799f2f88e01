import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LinkStateSchema, LinksExportQuery } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorReplies } from '../../http/errors.ts';
import { stateAt } from '../../lib/frame.ts';

/** Directions serialized per chunk: a few milliseconds of the event loop each. */
export const EXPORT_ROWS_PER_CHUNK = 256;

/** `count` rows as NDJSON chunks pulled as the socket drains, the event loop free between chunks. */
export async function* ndjsonChunks(
  count: number,
  rowAt: (i: number) => unknown,
  rowsPerChunk = EXPORT_ROWS_PER_CHUNK,
): AsyncGenerator<Buffer> {
  for (let start = 0; start < count; start += rowsPerChunk) {
    const end = Math.min(start + rowsPerChunk, count);
    let text = '';
    for (let i = start; i < end; i++) text += `${JSON.stringify(rowAt(i))}\n`;
    yield Buffer.from(text, 'utf8');
    await nextTurn();
  }
}

/** Every link direction of one instant, streamed: for scripts that want the whole fabric. */
export const linksExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/links/export',
    {
      config: { expensive: true },
      schema: {
        summary:
          'Every link direction of one instant (now, or `time`) as NDJSON, one LinkDirectionState per line in topology order, streamed with backpressure; the instant is in the `fabscope-time` header. At most a few exports run at once (503 with Retry-After beyond)',
        querystring: LinksExportQuery,
        response: {
          200: {
            description: 'One link direction per line',
            content: { 'application/x-ndjson': { schema: LinkStateSchema } },
          },
          ...errorReplies(400, 409, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const { time, kind } = request.query;
      const { time: instant, frame } = await app.timeTravel.instantFrame(time);
      const channels: number[] = [];
      for (const channel of frame.index.channels)
        if (kind === undefined || channel.fixed.kind === kind) channels.push(channel.index);
      reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('fabscope-time', instant)
        .header('fabscope-directions', String(channels.length));
      const rows = ndjsonChunks(channels.length, (i) => stateAt(frame, channels[i] as number));
      return reply.send(Readable.from(rows) as never);
    },
  );
};
