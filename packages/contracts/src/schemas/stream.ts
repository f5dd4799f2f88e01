import { type Static, Type } from '@sinclair/typebox';
import { Nullable } from './common.ts';
import { HealthSchema } from './health.ts';
import { LinkStateSchema } from './links.ts';
import { SummarySchema } from './summary.ts';

// The messages of `GET /api/v1/stream` (SSE, one per sampling tick): documentation and types, not
// validated on the way out.

const StreamTickFields = {
  time: Type.String({ format: 'date-time', description: 'When the tick was sampled' }),
  health: HealthSchema,
  summary: SummarySchema,
};

/** `view=full`: every link direction as an object (small fabrics). */
export const FullStreamMessageSchema = Type.Object({
  ...StreamTickFields,
  links: Type.Array(LinkStateSchema),
});
export type FullStreamMessage = Static<typeof FullStreamMessageSchema>;

const PerChannel = (description: string) =>
  Type.Array(Nullable(Type.Number()), {
    description: `${description}; one entry per channel in topology order (link i of /topology is channels 2i, a→b, and 2i+1, b→a); null is unknown`,
  });

/** `view=compact` (the default): per-channel arrays and the busiest directions as objects. */
export const CompactStreamMessageSchema = Type.Object({
  ...StreamTickFields,
  utilization: PerChannel('Fraction 0..1 rounded to 1e-4'),
  bytesPerSecond: PerChannel('Bytes per second, whole'),
  waitFraction: PerChannel(
    'Share of time 0..1 the sending port waited for credit (XmitWait), rounded to 1e-4',
  ),
  linkDown: Type.Array(Type.Integer(), { description: 'Channels whose link is reported down, ascending' }),
  errors: Type.Array(Type.Tuple([Type.Integer(), Type.Number(), Nullable(Type.Number())]), {
    description:
      '`[channel, errors per second, integrity fraction]` of the channels with errors counted or integrity at or past its threshold',
  }),
  errorsUnknown: Type.Integer({
    minimum: 0,
    description:
      'How many channels have no known error counters (none read, or the store keeps none): their errors are unknown, not 0, and `errors` cannot list them',
  }),
  top: Type.Array(LinkStateSchema, {
    description:
      'Per link kind, the first 50 directions by utilization, by XmitWait and by each PM category, as objects',
  }),
});
export type CompactStreamMessage = Static<typeof CompactStreamMessageSchema>;
