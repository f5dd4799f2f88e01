import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import type { FabricEvent } from '../events/event-log.ts';
import { parseTime, TimeParamError } from '../lib/time-params.ts';
import { EventsQuery, EventsSchema } from '../schemas/time.ts';
import { ErrorReply } from '../schemas.ts';
import { timeQueriesOf } from './time-travel.ts';

/** Most events in one answer: the newest are kept. */
export const MAX_EVENTS_PER_ANSWER = 11_000;

/**
 * What happened between `from` and `to`: changes made through the API (adaptive routing, traffic,
 * faults) from the event log, and link-state changes and counter resets seen in the samples (the
 * embedded store logs them; Prometheus derives them from its series).
 */
export const eventRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get<{ Querystring: EventsQuery }>(
    '/events',
    {
      schema: {
        summary:
          'Adaptive-routing changes, traffic start/stop, faults, link state changes and counter resets',
        querystring: EventsQuery,
        response: { 200: EventsSchema, 400: ErrorReply },
      },
    },
    async (request) => {
      const fromMs = parseTime('from', request.query.from);
      const toMs = request.query.to === undefined ? Date.now() : parseTime('to', request.query.to);
      if (toMs < fromMs) throw new TimeParamError('to is before from');
      const logged = ctx.events?.list(fromMs, toMs) ?? [];
      const derived = (await timeQueriesOf(ctx)?.events?.(fromMs, toMs)) ?? [];
      const events: FabricEvent[] = [...logged, ...derived].sort((a, b) => a.timeMs - b.timeMs);
      return {
        events: events.slice(-MAX_EVENTS_PER_ANSWER).map((e) => ({
          time: new Date(e.timeMs).toISOString(),
          kind: e.kind,
          subject: e.subject,
          detail: e.detail,
        })),
      };
    },
  );
};
