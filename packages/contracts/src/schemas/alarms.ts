import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';
import { TimeParam } from './time.ts';

const Severity = Literals(['warning', 'error', 'critical']);

/** One alarm: the link directions of one kind over one PM category's threshold. */
export const AlarmSchema = Type.Object({
  id: Type.String({ description: 'Stable while the condition lasts: `<category>/<isl|host>@<raised ms>`' }),
  category: Type.String({
    description: 'The PM category: integrity, congestion, smaCongestion, bubble, security, routing',
  }),
  linkKind: Literals(['isl', 'host']),
  state: Literals(['active', 'cleared']),
  severity: Severity,
  count: Type.Integer({
    description: 'Link directions over the threshold (at the last tick, or when cleared: 0)',
  }),
  summary: Type.String({
    description:
      'For people: "32 host link directions over the congestion threshold" (with "; 2 unknown since 12:04:10: <reason>")',
  }),
  members: Type.Array(
    Type.Object({
      id: Type.String(),
      value: Type.Number({ description: '× threshold (the last known value while unknown)' }),
      severity: Severity,
      unknownSince: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'Since when its value is unknown (the alarm stays)',
        }),
      ),
      unknownReason: Type.Optional(Type.String({ description: 'Why its value is unknown' })),
    }),
    { maxItems: 20, description: 'The worst 20 directions' },
  ),
  unknown: Type.Optional(
    Type.Object(
      {
        count: Type.Integer(),
        since: Type.String({ format: 'date-time' }),
        reason: Type.String(),
      },
      {
        description:
          "Present while members' values are unknown: an unknown value never clears an alarm, and it says so (the earliest, its reason)",
      },
    ),
  ),
  raisedAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  clearedAt: Nullable(Type.String({ format: 'date-time' })),
  acknowledged: Nullable(Type.Object({ by: Type.String(), at: Type.String({ format: 'date-time' }) })),
});
export type Alarm = Static<typeof AlarmSchema>;

export const AlarmsQuery = Closed({
  state: Type.Optional(
    Literals(['active', 'all'], {
      description: 'active (default): the alarms on now; all: and the last 100 cleared',
    }),
  ),
  at: Type.Optional(
    TimeParam(
      'The alarms as they stood at this instant, replayed from the event log (counts as of their last event then; no members); absent = now',
    ),
  ),
});
export type AlarmsQuery = Static<typeof AlarmsQuery>;

export const AlarmsReply = Type.Object({ alarms: Type.Array(AlarmSchema) });
export type AlarmList = Static<typeof AlarmsReply>;

export const AcknowledgeRequest = Closed({
  by: Type.String({ minLength: 1, maxLength: 128, description: 'Who acknowledges (a name or login)' }),
});
export type AcknowledgeRequest = Static<typeof AcknowledgeRequest>;
