import {
  AcknowledgeRequest,
  type Alarm as AlarmAnswer,
  AlarmSchema,
  AlarmsQuery,
  AlarmsReply,
  ErrorReply,
} from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../errors.ts';
import { type Alarm, alarmText } from '../../events/alarms.ts';
import { alarmsAt } from '../../events/alarms-at.ts';
import { parseTime } from '../../lib/time-params.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function answer(alarm: Alarm): AlarmAnswer {
  const { unknown, ...rest } = alarm;
  return {
    ...rest,
    count: alarm.state === 'cleared' ? 0 : alarm.count,
    summary: alarmText(alarm),
    members:
      alarm.state === 'cleared'
        ? []
        : alarm.members.map(({ unknownSinceMs, unknownReason, ...m }) =>
            unknownSinceMs === undefined
              ? m
              : { ...m, unknownSince: iso(unknownSinceMs), unknownReason: unknownReason ?? 'unknown' },
          ),
    ...(unknown
      ? { unknown: { count: unknown.count, since: iso(unknown.sinceMs), reason: unknown.reason } }
      : {}),
    raisedAt: iso(alarm.raisedMs),
    updatedAt: iso(alarm.updatedMs),
    clearedAt: alarm.clearedMs === null ? null : iso(alarm.clearedMs),
    acknowledged: alarm.acknowledged ? { by: alarm.acknowledged.by, at: iso(alarm.acknowledged.atMs) } : null,
  };
}

/** Alarms with a lifecycle (events/alarms.ts): the active ones, the cleared ones, acknowledgement. */
export const alarmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/alarms',
    {
      schema: {
        summary:
          'Alarms: the link directions of one kind over one PM category threshold, grouped; active ones worst first, with state=all the cleared ones too; with at=, as they stood then',
        querystring: AlarmsQuery,
        response: { 200: AlarmsReply, 400: ErrorReply },
      },
    },
    async (request) => {
      const all = request.query.state === 'all';
      if (request.query.at === undefined) return { alarms: (app.alarms?.list(all) ?? []).map(answer) };
      const atMs = parseTime('at', request.query.at);
      return { alarms: alarmsAt(app.events?.list(0, atMs) ?? [], atMs, all).map(answer) };
    },
  );

  app.post(
    '/alarms/:id/acknowledge',
    {
      schema: {
        summary: 'Acknowledges an alarm (who, when): recorded with it and in the events',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) }),
        body: AcknowledgeRequest,
        response: { 200: AlarmSchema, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const alarm = app.alarms?.acknowledge(request.params.id, request.body.by, Date.now()) ?? null;
      if (!alarm) throw new NotFoundError(`no alarm "${request.params.id}"`);
      return answer(alarm);
    },
  );
};
