import { type Static, Type } from '@sinclair/typebox';
import { EVENT_KINDS } from '../events/event-log.ts';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

const TimeParam = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `${description}: Unix seconds or RFC 3339` });
const StepParam = Type.String({
  minLength: 1,
  maxLength: 32,
  description:
    'Seconds or a duration (15s, 1m); default: the sampling interval, or coarser to stay within the points limit',
});

export const InstantQuery = Type.Object({ time: Type.Optional(TimeParam('The instant; absent = now')) });
export type InstantQuery = Static<typeof InstantQuery>;

export const RangeQuery = Type.Object(
  {
    from: TimeParam('Start'),
    to: Type.Optional(TimeParam('End; absent = now')),
    step: Type.Optional(StepParam),
  },
  { additionalProperties: false },
);
export type RangeQuery = Static<typeof RangeQuery>;

export const LinkRangeQuery = Type.Object(
  {
    id: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 1,
      maxItems: 100,
      description: 'Link direction `node/port->node/port`; repeat for several',
    }),
    from: TimeParam('Start'),
    to: Type.Optional(TimeParam('End; absent = now')),
    step: Type.Optional(StepParam),
  },
  { additionalProperties: false },
);
export type LinkRangeQuery = Static<typeof LinkRangeQuery>;

export const EventsQuery = Type.Object(
  { from: TimeParam('Start'), to: Type.Optional(TimeParam('End; absent = now')) },
  { additionalProperties: false },
);
export type EventsQuery = Static<typeof EventsQuery>;

const Histogram = Type.Object({
  isl: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
  host: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
});

export const SummaryHistorySchema = Type.Object({
  points: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time' }),
      hostTransmitBytesPerSecond: Nullable(
        Type.Number({ description: 'Null when unknown, never 0 for unknown' }),
      ),
      histogram: Type.Union([Histogram, Type.Null()], {
        description: 'Link directions per 10 % utilization bucket; null when unknown',
      }),
    }),
  ),
});

export const LinkHistorySchema = Type.Object({
  series: Type.Array(
    Type.Object({
      id: Type.String(),
      points: Type.Array(
        Type.Object({
          time: Type.String({ format: 'date-time' }),
          utilization: Nullable(Type.Number({ description: 'Fraction 0..1; null when unknown' })),
          bytesPerSecond: Nullable(Type.Number()),
          transmitWaitFraction: Nullable(Type.Number()),
        }),
      ),
    }),
  ),
});

export const EventsSchema = Type.Object({
  events: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time' }),
      kind: Type.Union(EVENT_KINDS.map((k) => Type.Literal(k))),
      subject: Type.String({ description: 'A link id, a port `node/port`, or `fabric`' }),
      detail: Type.String({ description: 'What happened; changes are written old → new' }),
    }),
  ),
});
