import { type Static, Type } from '@sinclair/typebox';
import { MAX_DURATION_SECONDS } from '../limits.ts';
import { Closed, Literals, Quantity } from './common.ts';

/** Faults that raise one error counter at a `rate` per second at the ports named. */
export const ERROR_RATE_FAULTS = [
  'link-integrity',
  'constraint-errors',
  'switch-relay-errors',
  'vl15-drops',
  'buffer-overruns',
  'uncorrectable-errors',
] as const;
export type ErrorRateFault = (typeof ERROR_RATE_FAULTS)[number];

export const FAULT_TYPES = [
  'link-down',
  'link-up',
  'flap',
  'symbol-errors',
  'switch-down',
  'switch-up',
  'restart',
  'clear-counters',
  ...ERROR_RATE_FAULTS,
  'link-quality',
  'link-width-downgrade',
] as const;

export type FaultType = (typeof FAULT_TYPES)[number];
/** Where a fault applies: a link (or one end: `node` and `port`), a node, or a node's ports. */
type FaultTarget = 'link-or-end' | 'node' | 'node-ports';
const errorRate = { target: 'link-or-end', fields: ['rate'], needs: ['rate'] } as const;

/** What each fault type takes besides `type`; the schema (allOf below) and the emulator read this table. */
export const FAULT_FIELDS: Record<
  FaultType,
  { target: FaultTarget; fields: readonly string[]; needs: readonly string[] }
> = {
  'link-down': { target: 'link-or-end', fields: [], needs: [] },
  'link-up': { target: 'link-or-end', fields: [], needs: [] },
  flap: { target: 'link-or-end', fields: ['period', 'downFor'], needs: [] },
  'symbol-errors': errorRate,
  'switch-down': { target: 'node', fields: [], needs: [] },
  'switch-up': { target: 'node', fields: [], needs: [] },
  restart: { target: 'node', fields: [], needs: [] },
  'clear-counters': { target: 'node-ports', fields: [], needs: [] },
  'link-integrity': errorRate,
  'constraint-errors': errorRate,
  'switch-relay-errors': errorRate,
  'vl15-drops': errorRate,
  'buffer-overruns': errorRate,
  'uncorrectable-errors': errorRate,
  'link-quality': { target: 'link-or-end', fields: ['quality'], needs: ['quality'] },
  'link-width-downgrade': { target: 'link-or-end', fields: ['lanes'], needs: ['lanes'] },
};

/** The fields a fault type takes besides `type`. */
export function faultKeys(type: FaultType): string[] {
  const { target, fields } = FAULT_FIELDS[type];
  const where =
    target === 'node' ? ['node'] : target === 'node-ports' ? ['node', 'port'] : ['link', 'node', 'port'];
  return [...where, ...fields];
}

const FAULT_REQUEST_FIELDS = ['link', 'node', 'port', 'period', 'downFor', 'rate', 'quality', 'lanes'];
const absent = { not: {} };

/** Per type, as JSON Schema: the fields it does not take are absent, the ones it needs present. */
function faultRule(type: FaultType) {
  const { target, needs } = FAULT_FIELDS[type];
  const keys = faultKeys(type);
  const then: Record<string, unknown> = {
    properties: Object.fromEntries(
      FAULT_REQUEST_FIELDS.filter((f) => !keys.includes(f)).map((f) => [f, absent]),
    ),
  };
  const required = [...needs, ...(target === 'link-or-end' ? [] : ['node'])];
  if (required.length > 0) then.required = required;
  // A link, or one end of it: not both.
  if (target === 'link-or-end')
    then.anyOf = [
      { required: ['link'], properties: { node: absent, port: absent } },
      { required: ['node', 'port'], properties: { link: absent } },
    ];
  return { if: { properties: { type: { const: type } }, required: ['type'] }, then };
}

export const FaultRequest = Closed(
  {
    type: Literals(FAULT_TYPES, {
      description:
        'link-down/up, flap, symbol-errors, switch-down/up, restart (counters from 0), clear-counters; the counters of the PM categories: link-integrity, constraint-errors (security), switch-relay-errors (routing), vl15-drops, buffer-overruns, uncorrectable-errors (rate/s), link-quality (quality 0..5), link-width-downgrade (lanes 0..3)',
    }),
    link: Type.Optional(Type.String({ minLength: 1, description: 'link id `a/port--b/port`' })),
    node: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 255 })),
    period: Type.Optional(Quantity('flap: seconds per down-up cycle (default 2)', MAX_DURATION_SECONDS)),
    downFor: Type.Optional(
      Quantity('flap: seconds down in each cycle (default half the period)', MAX_DURATION_SECONDS),
    ),
    rate: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e9,
        description: 'symbol-errors and the other error faults: errors per second (0 stops them)',
      }),
    ),
    quality: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 5,
        description: 'link-quality: LinkQualityIndicator, 5 excellent',
      }),
    ),
    lanes: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3, description: 'link-width-downgrade: lanes down of 4' }),
    ),
  },
  { allOf: FAULT_TYPES.map(faultRule) },
);
export type FaultRequest = Static<typeof FaultRequest>;

/** An active fault (GET /v1/faults of the emulator, /api/v1/faults), or the record of a one-off event. */
export const FaultSchema = Type.Object({
  id: Type.String(),
  type: Literals(FAULT_TYPES),
  target: Type.String({ description: 'link id, node, or node/port' }),
  sinceMs: Type.Number(),
  period: Type.Optional(Type.Number()),
  downFor: Type.Optional(Type.Number()),
  rate: Type.Optional(Type.Number()),
  quality: Type.Optional(Type.Number()),
  lanes: Type.Optional(Type.Number()),
});
export type FaultInfo = Static<typeof FaultSchema>;
export const FaultsSchema = Type.Object({ faults: Type.Array(FaultSchema) });
export const FaultAppliedSchema = Type.Object({ fault: FaultSchema, faults: Type.Array(FaultSchema) });
export type FaultList = Static<typeof FaultsSchema>;
