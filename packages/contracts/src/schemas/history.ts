import { type Static, Type } from '@sinclair/typebox';
import { Closed, Nullable } from './common.ts';
import { RangeQuery } from './time.ts';

/** `GET /links/history`: link directions over a range. */
export const LinkRangeQuery = Closed({
  id: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    minItems: 1,
    maxItems: 100,
    description: 'Link direction `node/port->node/port`; repeat for several',
  }),
  ...RangeQuery.properties,
});
export type LinkRangeQuery = Static<typeof LinkRangeQuery>;

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
      histogram: Nullable(Histogram, {
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
          errorsPerSecond: Type.Optional(
            Nullable(
              Type.Number({
                description:
                  "The direction's error counters together per second (its two ports, as the live ranking's errors/s); null when unknown or not kept (a TSDB's history: not asked)",
              }),
            ),
          ),
        }),
      ),
    }),
  ),
});

export type SummaryHistory = Static<typeof SummaryHistorySchema>;
export type SummaryPoint = SummaryHistory['points'][number];
export type LinkHistory = Static<typeof LinkHistorySchema>;
export type LinkHistoryPoint = LinkHistory['series'][number]['points'][number];

/** `GET /history/kept`: how much history the store holds, so a client offers only the ranges it has. */
export const HistoryKeptSchema = Type.Object({
  store: Type.Union([Type.Literal('embedded'), Type.Literal('prometheus')]),
  seconds: Nullable(
    Type.Number({
      description:
        "How far back the store keeps history (FABSCOPE_HISTORY_SECONDS within FABSCOPE_HISTORY_MAX_BYTES); null where the TSDB's retention decides",
    }),
  ),
  oldest: Nullable(
    Type.String({
      format: 'date-time',
      description: 'The oldest instant held now; null when none or unknown',
    }),
  ),
  onDisk: Type.Boolean({ description: 'The history survives a restart (FABSCOPE_DATA_DIR, or a TSDB)' }),
});
export type HistoryKept = Static<typeof HistoryKeptSchema>;
