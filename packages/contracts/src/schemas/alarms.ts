import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';

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
    description: 'For people: "32 host link directions over the congestion threshold"',
  }),
  members: Type.Array(
    Type.Object({
      id: Type.String(),
      value: Type.Number({ description: '× threshold' }),
      severity: Severity,
    }),
    { maxItems: 20, description: 'The worst 20 directions' },
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
});
export type AlarmsQuery = Static<typeof AlarmsQuery>;

export const AlarmsReply = Type.Object({ alarms: Type.Array(AlarmSchema) });
export type AlarmList = Static<typeof AlarmsReply>;

export const AcknowledgeRequest = Closed({
  by: Type.String({ minLength: 1, maxLength: 128, description: 'Who acknowledges (a name or login)' }),
});
export type AcknowledgeRequest = Static<typeof AcknowledgeRequest>;
