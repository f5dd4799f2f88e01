import { type Static, Type } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorReply = Type.Object(
  { statusCode: Type.Integer(), error: Type.String(), message: Type.String() },
  { $id: 'ErrorReply', description: 'A 4xx or 5xx answer: `message` says what was wrong' },
);

export const PortRefSchema = Type.Object({ node: Type.String(), port: Type.Integer() });

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  store: Type.Union([Type.Literal('embedded'), Type.Literal('prometheus')]),
  lastSampleAgeSeconds: Nullable(Type.Number({ description: 'Age of the newest counter sample; null before any' })),
  error: Type.Optional(Type.String()),
});

export const TopologySchema = Type.Object({
  name: Type.String(),
  fabricType: Type.String(),
  nodes: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      tier: Type.Integer({ description: '0 hosts and routers, 1 edge, 2 core …' }),
      guid: Type.String(),
      lid: Type.Integer(),
    }),
  ),
  links: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      a: PortRefSchema,
      b: PortRefSchema,
      rateGbps: Type.Number(),
    }),
  ),
});

export const LinkStateSchema = Type.Object({
  id: Type.String({ description: 'Link direction `node/port->node/port`' }),
  linkId: Type.String(),
  kind: Type.String(),
  from: PortRefSchema,
  to: PortRefSchema,
  capacityBytesPerSecond: Type.Number(),
  utilization: Nullable(Type.Number({ description: 'Fraction 0..1; null when unknown (stale)' })),
  bytesPerSecond: Nullable(Type.Number()),
  packetsPerSecond: Nullable(Type.Number()),
  transmitWaitTicksPerSecond: Nullable(Type.Number()),
  stale: Type.Boolean(),
});

export const SummarySchema = Type.Object({
  time: Type.String({ format: 'date-time' }),
  hostTransmitBytesPerSecond: Nullable(Type.Number({ description: 'Sum over host ports; null when unknown' })),
  histogram: Type.Object({
    isl: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
    host: Type.Array(Type.Integer(), { minItems: 10, maxItems: 10 }),
  }),
  staleLinks: Type.Integer(),
});

export const LinksQuery = Type.Object({
  sort: Type.Optional(Type.Union([Type.Literal('utilization'), Type.Literal('bytesPerSecond'), Type.Literal('id')])),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  kind: Type.Optional(Type.Union([Type.Literal('isl'), Type.Literal('host')])),
});
export type LinksQuery = Static<typeof LinksQuery>;

export const RouteQuery = Type.Object({ from: Type.String({ minLength: 1 }), to: Type.String({ minLength: 1 }) });
export type RouteQuery = Static<typeof RouteQuery>;

export const RouteSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  hops: Type.Array(
    Type.Object({ node: Type.String(), inPort: Type.Optional(Type.Integer()), outPort: Type.Optional(Type.Integer()) }),
  ),
  links: Type.Array(Type.String(), { description: 'Link directions crossed, in order' }),
});

export const AdaptiveRoutingSchema = Type.Object({
  enabled: Type.Boolean({ description: 'opafm <Enable>' }),
  lostRouteOnly: Type.Boolean({ description: 'opafm <LostRouteOnly>: reroute only around failed links' }),
  algorithm: Type.Integer({ minimum: 0, maximum: 2, description: '0 Random, 1 Greedy, 2 GreedyRandom' }),
  arFrequency: Type.Integer({ minimum: 0, maximum: 7, description: 'n: at least 2^n × 64 ms between adjustments' }),
  threshold: Type.Integer({
    minimum: 0,
    maximum: 7,
    description: '0 firmware default; 1..7 = 100, 90, 80, 70, 65, 60, 55 % ISL load before AR moves traffic',
  }),
});
export const AdaptiveRoutingPatch = Type.Partial(AdaptiveRoutingSchema, { additionalProperties: false, minProperties: 1 });
export type AdaptiveRoutingPatch = Static<typeof AdaptiveRoutingPatch>;

export const TrafficRequest = Type.Object(
  {
    pattern: Type.Literal('pairs'),
    pairs: Type.Array(Type.Tuple([Type.String({ minLength: 1 }), Type.String({ minLength: 1 })]), {
      minItems: 1,
      maxItems: 100_000,
    }),
  },
  { additionalProperties: false },
);
export type TrafficRequest = Static<typeof TrafficRequest>;

export const FlowsSchema = Type.Object({
  flows: Type.Array(
    Type.Object({
      id: Type.String(),
      from: Type.String(),
      to: Type.String(),
      bytesPerSecond: Type.Number(),
      path: Type.Array(Type.String()),
    }),
  ),
});
