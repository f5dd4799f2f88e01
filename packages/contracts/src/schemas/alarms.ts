import { type Static, Type } from '@sinclair/typebox';

const Severity = Type.Union([Type.Literal('warning'), Type.Literal('error'), Type.Literal('critical')]);

/** One alarm: the link directions of one kind over one PM category's threshold. */
export const AlarmSchema = Type.Object({
  id: Type.String({ description: 'Stable while the condition lasts: `<category>/<isl|host>@<raised ms>`' }),
  category: Type.String({
    description: 'The PM category: integrity, congestion, smaCongestion, bubble, security, routing',
  }),
  linkKind: Type.Union([Type.Literal('isl'), Type.Literal('host')]),
  state: Type.Union([Type.Literal('active'), Type.Literal('cleared')]),
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
  clearedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  acknowledged: Type.Union([
    Type.Object({ by: Type.String(), at: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
});
export type Alarm = Static<typeof AlarmSchema>;

export const AlarmsQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('all')], {
        description: 'active (default): the alarms on now; all: and the last 100 cleared',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AlarmsQuery = Static<typeof AlarmsQuery>;

export const AlarmsReply = Type.Object({ alarms: Type.Array(AlarmSchema) });
export type AlarmList = Static<typeof AlarmsReply>;

export const AcknowledgeRequest = Type.Object(
  { by: Type.String({ minLength: 1, maxLength: 128, description: 'Who acknowledges (a name or login)' }) },
  { additionalProperties: false },
);
export type AcknowledgeRequest = Static<typeof AcknowledgeRequest>;
