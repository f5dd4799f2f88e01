import { CompactStreamMessageSchema, FullStreamMessageSchema, TimeParam } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorReplies } from '../../http/errors.ts';
import { type CompactTick, compactFrame } from '../../lib/compact-tick.ts';
import { statesOf } from '../../lib/frame.ts';
import { summarizeFrame } from '../../lib/summary.ts';
import { parseTime } from '../../lib/time-params.ts';
import { STREAM_VIEWS } from '../../tick-broadcast.ts';

const InstantStreamQuery = Type.Object(
  {
    time: TimeParam('The instant'),
    view: Type.Optional(
      Type.Union(
        STREAM_VIEWS.map((v) => Type.Literal(v)),
        { description: 'The encoding, as `/stream`: compact (default) or full' },
      ),
    ),
  },
  { additionalProperties: false },
);

/** `GET /instant?time=T&view=`: the fabric at a past instant as one `/stream` message in the same encoding. */
export const instantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/instant',
    {
      config: { cache: 'tick' },
      schema: {
        summary:
          'The fabric at a past instant as one `/stream` message (compact or full): what the dashboard draws when it travels in time',
        querystring: InstantStreamQuery,
        response: {
          200: Type.Union([CompactStreamMessageSchema, FullStreamMessageSchema]),
          ...errorReplies(400, 404, 409, 502, 504),
        },
      },
    },
    async (request, reply) => {
      const timeMs = parseTime('time', request.query.time);
      const queries = app.timeTravel.require();
      const [frame, stored] = await Promise.all([queries.frameAt(timeMs), queries.summaryAt(timeMs)]);
      // Prometheus' sums lack category histograms and ports without data: computed from the frame.
      let summary = stored;
      if (!stored.categories) {
        const { categories, portsWithoutData } = summarizeFrame(frame, true, timeMs);
        summary = { ...stored, ...(categories ? { categories } : {}), portsWithoutData };
      }
      const now = app.sampler.healthNow().health;
      const version = app.sampler.topologyVersion;
      // A past instant has no age; its topology version is the one drawn now (older drawings are a prefix).
      const health = {
        status: 'ok' as const,
        store: now.store,
        lastSampleAgeSeconds: null,
        intervalMs: now.intervalMs,
        staleAfterSeconds: now.staleAfterSeconds,
        ...(version > 0 ? { topologyVersion: version } : {}),
      };
      const time = new Date(timeMs).toISOString();
      const tick = { time, health, summary };
      const message =
        request.query.view === 'full'
          ? { ...tick, links: statesOf(frame) }
          : padded(compactFrame(tick, frame), app.fabric.linkIndex.channels.length);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(message) as never);
    },
  );
};

/** An instant of an older drawing has fewer channels (new ones come last): unknown in today's drawing. */
function padded<H, S>(message: CompactTick<H, S>, channels: number): CompactTick<H, S> {
  const missing = channels - message.utilization.length;
  if (missing <= 0) return message;
  const unknown = new Array<null>(missing).fill(null);
  message.utilization.push(...unknown);
  message.bytesPerSecond.push(...unknown);
  message.waitFraction.push(...unknown);
  message.errorsUnknown += missing;
  return message;
}
