import { type Static, Type } from '@sinclair/typebox';
import { CATEGORY_NAMES } from '../names.ts';
import { Nullable, recordOf } from './common.ts';

const CategoryBars = Type.Object({
  isl: Type.Array(Type.Integer(), { minItems: 5, maxItems: 5 }),
  host: Type.Array(Type.Integer(), { minItems: 5, maxItems: 5 }),
  unknown: Type.Integer({ description: 'Link directions with the category unknown' }),
});

export const SummarySchema = Type.Object({
  time: Type.String({ format: 'date-time' }),
  hostTransmitBytesPerSecond: Nullable(
    Type.Number({ description: 'Sum over host ports; null when unknown' }),
  ),
  histogram: Type.Object({
    isl: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
    host: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
  }),
  staleLinks: Type.Integer(),
  categories: Type.Optional(
    recordOf(CATEGORY_NAMES, CategoryBars, {
      description:
        'Per PM category, link directions per bar of 0-25, 25-50, 50-75, 75-100 and ≥ 100 % of threshold (live only)',
    }),
  ),
  portsWithoutData: Type.Optional(
    Type.Integer({ description: 'Cabled ports of the topology with no fresh reading (live only)' }),
  ),
});
export type Summary = Static<typeof SummarySchema>;
export type UtilizationHistogram = Summary['histogram'];
