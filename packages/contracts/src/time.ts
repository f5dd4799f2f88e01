import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from './nullable.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';

/** The kinds of `/api/v1/events`: what the API records into its event log. */
export const EVENT_KINDS = [
  'adaptive-routing',
  'routing',
  'traffic',
  'fault',
  'link-state',
  'counter-reset',
  'threshold',
  'collection-gap',
  'alert',
  'topology',
  'alarm',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** How bad: `info` for changes and recoveries, then as the PM categories (warning, error, critical). */
export const EVENT_SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];

/** A time parameter as every route takes it (apps/api/src/lib/time-params.ts parses it). */
export const TimeParam = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: `${description}: Unix seconds, RFC 3339, or relative (now, now-5m, -5m)`,
  });
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
  { from: TimeParam('Start'), to: Type.Optional(TimeParam('End; absent = now')), ...PageQueryFields },
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
  ...PageAnswerFields,
  events: Type.Array(
    Type.Object({
      time: Type.String({ format: 'date-time' }),
      kind: Type.Union(EVENT_KINDS.map((k) => Type.Literal(k))),
      subject: Type.String({ description: 'A link id, a port `node/port`, or `fabric`' }),
      detail: Type.String({ description: 'What happened; changes are written old → new' }),
      severity: Type.Union(
        EVENT_SEVERITIES.map((k) => Type.Literal(k)),
        {
          description:
            'info for changes and recoveries; warning, error, critical for PM thresholds crossed (1 ×, 3 ×, 10 ×), unexpected clears and collection gaps',
        },
      ),
    }),
    {
      description:
        'In time order. Pages go back in time: the first page holds the newest events, `next` the ones before them',
    },
  ),
});

export type SummaryHistory = Static<typeof SummaryHistorySchema>;
export type SummaryPoint = SummaryHistory['points'][number];
export type LinkHistory = Static<typeof LinkHistorySchema>;
export type LinkHistoryPoint = LinkHistory['series'][number]['points'][number];
export type EventList = Static<typeof EventsSchema>;
/** One entry of `/api/v1/events`: what changed on the fabric, and when. */
export type EventRecord = EventList['events'][number];
