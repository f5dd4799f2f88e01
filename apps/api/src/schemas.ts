import { type Static, Type } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorReply = Type.Object(
  { statusCode: Type.Integer(), error: Type.String(), message: Type.String() },
  { $id: 'ErrorReply', description: 'A 4xx or 5xx answer: `message` says what was wrong' },
);

export const PortRefSchema = Type.Object({ node: Type.String(), port: Type.Integer() });

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('degraded')], {
    description:
      'ok: newest sample at most staleAfterSeconds old; stale: older, or none yet; degraded: the store fails',
  }),
  store: Type.Union([Type.Literal('embedded'), Type.Literal('prometheus')]),
  lastSampleAgeSeconds: Nullable(
    Type.Number({ description: 'Age of the newest counter sample; null before any' }),
  ),
  intervalMs: Type.Integer({ description: 'Sampling tick: a stream message is due this often' }),
  staleAfterSeconds: Type.Number({ description: 'Data older than this is stale (the one staleness policy)' }),
  error: Type.Optional(
    Type.String({
      description: 'What is wrong; internal addresses shown only to this machine or with the token',
    }),
  ),
  supervisor: Type.Optional(
    Type.Object(
      {
        restarts: Type.Integer({ description: 'Times the supervised Prometheus was restarted' }),
        running: Type.Boolean(),
        lastExit: Type.Optional(Type.String({ description: 'How it last stopped, e.g. "signal SIGKILL"' })),
      },
      { description: 'The Prometheus the demo runs and restarts (demo --prometheus only)' },
    ),
  ),
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
  transmitWaitTicksPerSecond: Nullable(
    Type.Number({ description: 'XmitWait ticks per second at the sending port; null when unknown' }),
  ),
  transmitWaitFraction: Nullable(
    Type.Number({
      description:
        'Share of time 0..1 the sending port had data and no credit (XmitWait ticks/s × tick length); null when unknown',
    }),
  ),
  linkUp: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'false when either end reports the link down, true when active; null when not reported',
  }),
  stale: Type.Boolean(),
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
});

export const LinksQuery = Type.Object(
  {
    sort: Type.Optional(
      Type.Union([
        Type.Literal('utilization'),
        Type.Literal('bytesPerSecond'),
        Type.Literal('transmitWaitFraction'),
        Type.Literal('id'),
      ]),
    ),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    kind: Type.Optional(Type.Union([Type.Literal('isl'), Type.Literal('host')])),
  },
  { additionalProperties: false },
);
export type LinksQuery = Static<typeof LinksQuery>;

export const RouteQuery = Type.Object(
  {
    from: Type.String({ minLength: 1, maxLength: 256 }),
    to: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);
export type RouteQuery = Static<typeof RouteQuery>;

export const RouteSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  hops: Type.Array(
    Type.Object({
      node: Type.String(),
      type: Type.Optional(Type.String({ description: 'host, switch or router' })),
      guid: Type.Optional(Type.String()),
      inPort: Type.Optional(Type.Integer()),
      outPort: Type.Optional(Type.Integer()),
      link: Type.Optional(
        Type.String({ description: 'Link direction leaving this hop (absent at the destination)' }),
      ),
      rateGbps: Type.Optional(Type.Number({ description: 'Data rate of that link, Gb/s' })),
    }),
  ),
  links: Type.Array(Type.String(), { description: 'Link directions crossed, in order' }),
  engine: Type.Optional(
    Type.String({ description: 'Routing engine that built the tables (minhop, fattree, ibroute)' }),
  ),
  slid: Type.Optional(Type.Integer()),
  dlid: Type.Optional(Type.Integer()),
  bottleneckGbps: Type.Optional(Type.Number({ description: 'Slowest link on the path, Gb/s' })),
  latencyNs: Type.Optional(
    Type.Number({
      description: 'Latency estimate: 400 ns per endpoint, 110 ns per switch, 5 ns/m of cable (2 m default)',
    }),
  ),
  latency: Type.Optional(
    Type.Object({
      latencyNs: Type.Number(),
      endpointsNs: Type.Number(),
      switchesNs: Type.Number(),
      routersNs: Type.Number(),
      cablesNs: Type.Number(),
    }),
  ),
});

export const AdaptiveRoutingSchema = Type.Object({
  enabled: Type.Boolean({ description: 'opafm <Enable>' }),
  lostRouteOnly: Type.Boolean({ description: 'opafm <LostRouteOnly>: reroute only around failed links' }),
  algorithm: Type.Integer({ minimum: 0, maximum: 2, description: '0 Random, 1 Greedy, 2 GreedyRandom' }),
  arFrequency: Type.Integer({
    minimum: 0,
    maximum: 7,
    description: 'n: at least 2^n × 64 ms between adjustments',
  }),
  threshold: Type.Integer({
    minimum: 0,
    maximum: 7,
    description: '0 firmware default; 1..7 = 100, 90, 80, 70, 65, 60, 55 % ISL load before AR moves traffic',
  }),
});
export const AdaptiveRoutingPatch = Type.Partial(AdaptiveRoutingSchema, {
  additionalProperties: false,
  minProperties: 1,
});
export type AdaptiveRoutingPatch = Static<typeof AdaptiveRoutingPatch>;

/**
 * A quantity as a number in its base unit (at most `maximum`) or a number with a unit. The
 * emulator reads the text and bounds it the same way (packages/emulator/src/units.ts), answering
 * 400 naming the field; here a number beyond the bound, or text that is no quantity, is refused first.
 */
const Quantity = (description: string, maximum: number) =>
  Type.Union(
    [
      Type.Number({ minimum: 0, maximum }),
      Type.String({
        minLength: 1,
        maxLength: 32,
        pattern: '^\\s*[0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]{1,3})?\\s*[a-zA-Z/]*\\s*$',
      }),
    ],
    { description: `${description}; at most ${maximum}` },
  );
/** The emulator's bounds (packages/emulator/src/units.ts). */
const MAX_SECONDS = 366 * 24 * 3600;
const MAX_BYTES = 2 ** 40;
const MAX_BYTES_PER_SECOND = 1e13;
const HostName = Type.String({ minLength: 1, maxLength: 256 });

export const TRAFFIC_PATTERNS = [
  'pairs',
  'shift',
  'permutation',
  'all-to-all',
  'incast',
  'bisection',
  'iperf',
  'storage',
] as const;

/** One traffic item; the fields each pattern needs are checked by the route (and the emulator). */
export const TrafficItem = Type.Object(
  {
    pattern: Type.Union(
      TRAFFIC_PATTERNS.map((p) => Type.Literal(p)),
      {
        description:
          'pairs (osu_mbw_mr style), shift, permutation, all-to-all, incast, bisection, iperf, storage',
      },
    ),
    pairs: Type.Optional(
      Type.Array(Type.Tuple([HostName, HostName]), {
        minItems: 1,
        maxItems: 100_000,
        description: 'pairs: [sender, receiver]',
      }),
    ),
    k: Type.Optional(
      Type.Integer({
        minimum: -1_000_000,
        maximum: 1_000_000,
        description: 'shift: host i sends to host i+k',
      }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 32 - 1,
        description: 'permutation: seed of the random derangement',
      }),
    ),
    to: Type.Optional(Type.String({ minLength: 1, description: 'incast, iperf: receiver' })),
    from: Type.Optional(
      Type.Union([HostName, Type.Array(HostName, { minItems: 1 })], {
        description: 'iperf: sender; incast: senders',
      }),
    ),
    streams: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1024, description: 'iperf: parallel streams (-P)' }),
    ),
    server: Type.Optional(Type.String({ minLength: 1, description: 'storage: the server' })),
    clients: Type.Optional(
      Type.Array(HostName, {
        minItems: 1,
        maxItems: 100_000,
        description: 'storage: clients (default all others)',
      }),
    ),
    op: Type.Optional(Type.Union([Type.Literal('read'), Type.Literal('write')])),
    ioSize: Type.Optional(Quantity('storage: I/O size, bytes or "1MiB"', MAX_BYTES)),
    jobs: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1024, description: 'storage: streams per client' }),
    ),
    hosts: Type.Optional(
      Type.Array(HostName, {
        minItems: 1,
        maxItems: 100_000,
        description: 'hosts a collective pattern runs on',
      }),
    ),
    start: Type.Optional(Quantity('seconds from now, or "500ms"', MAX_SECONDS)),
    duration: Type.Optional(Quantity('seconds, or "10s"; default until stopped', MAX_SECONDS)),
    messageSize: Type.Optional(Quantity('bytes, or "4KiB"', MAX_BYTES)),
    demand: Type.Optional(
      Quantity('bytes/s per flow, or "50Gb/s"; default as fast as the path allows', MAX_BYTES_PER_SECOND),
    ),
    transport: Type.Optional(Type.Union([Type.Literal('rdma'), Type.Literal('ip')])),
  },
  { additionalProperties: false },
);
export type TrafficItem = Static<typeof TrafficItem>;

export const TrafficRequest = Type.Union([
  TrafficItem,
  Type.Object(
    { items: Type.Array(TrafficItem, { minItems: 1, maxItems: 1000 }) },
    { additionalProperties: false },
  ),
]);
export type TrafficRequest = Static<typeof TrafficRequest>;

export const FAULT_TYPES = [
  'link-down',
  'link-up',
  'flap',
  'symbol-errors',
  'switch-down',
  'switch-up',
  'restart',
  'clear-counters',
] as const;

export const FaultRequest = Type.Object(
  {
    type: Type.Union(
      FAULT_TYPES.map((t) => Type.Literal(t)),
      {
        description:
          'link-down/up, flap, symbol-errors, switch-down/up, restart (counters from 0), clear-counters',
      },
    ),
    link: Type.Optional(Type.String({ minLength: 1, description: 'link id `a/port--b/port`' })),
    node: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 255 })),
    period: Type.Optional(Quantity('flap: seconds per down-up cycle (default 2)', MAX_SECONDS)),
    downFor: Type.Optional(
      Quantity('flap: seconds down in each cycle (default half the period)', MAX_SECONDS),
    ),
    rate: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e9,
        description: 'symbol-errors: errors per second (0 stops them)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FaultRequest = Static<typeof FaultRequest>;

export const FaultSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  target: Type.String({ description: 'link id, node, or node/port' }),
  sinceMs: Type.Number(),
  period: Type.Optional(Type.Number()),
  downFor: Type.Optional(Type.Number()),
  rate: Type.Optional(Type.Number()),
});
export const FaultsSchema = Type.Object({ faults: Type.Array(FaultSchema) });
export const FaultAppliedSchema = Type.Object({ fault: FaultSchema, faults: Type.Array(FaultSchema) });

export const FlowsSchema = Type.Object({
  flows: Type.Array(
    Type.Object({
      id: Type.String(),
      from: Type.String(),
      to: Type.String(),
      bytesPerSecond: Type.Number(),
      path: Type.Array(Type.String()),
      pattern: Type.Optional(Type.String()),
      transport: Type.Optional(Type.String()),
      messageBytes: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      state: Type.Optional(Type.String({ description: 'pending (before its start) or running' })),
      startMs: Type.Optional(Type.Number()),
      endMs: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    }),
  ),
});
