import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';
import { FabricTypeSchema } from './emulator.ts';

export const RouteQuery = Closed({
  from: Type.String({ minLength: 1, maxLength: 256 }),
  to: Type.String({ minLength: 1, maxLength: 256 }),
});
export type RouteQuery = Static<typeof RouteQuery>;

/** Where the forwarding tables behind an answer came from. */
export const RouteTablesSchema = Type.Union(
  [
    Type.Object({
      source: Type.Literal('sm'),
      from: Literals(['lfts-dump', 'ibroute', 'dump_fts', 'emulator'], {
        description:
          "lfts-dump: OpenSM's opensm-lfts.dump (FABSCOPE_LFTS); ibroute, dump_fts: the switches' tables read with that tool; emulator: the emulated fabric manager's sweeps",
      }),
      readAt: Type.String({
        description: 'When the tables were last read from the subnet manager (RFC 3339)',
      }),
      ageSeconds: Type.Number({ description: 'Seconds since readAt' }),
      changedAt: Type.Optional(
        Type.String({ description: 'When the subnet manager last changed them (RFC 3339)' }),
      ),
      missingSwitches: Type.Optional(
        Type.Object(
          {
            count: Type.Integer(),
            names: Type.Array(Type.String(), { maxItems: 20, description: 'The first 20' }),
          },
          {
            description:
              'Switches of the topology the subnet manager gave no table for: routes through them have none (never filled from computed tables)',
          },
        ),
      ),
      error: Type.Optional(
        Type.String({ description: 'Why the newest read was not applied: the tables are those read before' }),
      ),
    }),
    Type.Object({
      source: Type.Literal('computed'),
      engine: Type.String({
        description: "fabscope's own routing engine (no subnet manager's tables configured)",
      }),
    }),
  ],
  { description: 'Where the forwarding tables came from: the subnet manager, or computed by fabscope' },
);
export type RouteTables = Static<typeof RouteTablesSchema>;

/** A member of an Ethernet route's equal-cost set, with its load now. */
export const EcmpMemberSchema = Type.Object({
  links: Type.Array(Type.String(), { description: 'Link directions crossed, in order' }),
  utilization: Nullable(Type.Number(), {
    description:
      'Its busiest link direction’s utilization 0..1, over the links not every member crosses; null when one of them is unknown',
  }),
  transmitWaitFraction: Nullable(Type.Number(), {
    description:
      'Its most paused link direction’s share of time waiting (PFC pause), over the links not every member crosses; null when one is unknown',
  }),
  taken: Type.Boolean({ description: 'Whether this is the path the answer’s hops follow' }),
});
export type EcmpMember = Static<typeof EcmpMemberSchema>;

export const EcmpSetSchema = Type.Object(
  {
    hash: Type.Literal('switch', {
      description:
        "Which member a flow takes is each switch's hash of the flow's 5-tuple (its own fields and seed), not fabscope's",
    }),
    paths: Type.Number({ description: 'Equal-cost (fewest-hop) paths between the two hosts in all' }),
    members: Type.Array(EcmpMemberSchema, { maxItems: 64, description: 'The first 64, in port order' }),
  },
  {
    description:
      'On Ethernet: the equal-cost multipath set the switches spread flows over, each member’s load',
  },
);
export type EcmpSet = Static<typeof EcmpSetSchema>;

export const RouteSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  rail: Type.Optional(
    Type.Object(
      {
        from: Type.String({ description: 'The host asked for' }),
        to: Type.String({ description: 'The host asked for' }),
        rails: Type.Array(Type.String({ description: 'from->to, adapter names' }), {
          maxItems: 16,
          description: 'Every rail pair of the two hosts (same device paired); the route is of the first',
        }),
      },
      {
        description:
          'When a name meant a host of several adapters (rails): the hosts asked for, and which rail the route takes (from and to above)',
      },
    ),
  ),
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
      utilization: Type.Optional(
        Nullable(Type.Number(), {
          description: 'Live utilization 0..1 of the link leaving this hop; null when unknown',
        }),
      ),
      bytesPerSecond: Type.Optional(Nullable(Type.Number())),
      transmitWaitFraction: Type.Optional(
        Nullable(Type.Number(), {
          description: 'Share of time 0..1 the port leaving this hop waited for credit; null when unknown',
        }),
      ),
      network: Type.Optional(
        Type.Union(FabricTypeSchema.anyOf, {
          description: 'Network of that link (its last at the destination): omnipath, infiniband, ethernet',
        }),
      ),
    }),
  ),
  links: Type.Array(Type.String(), { description: 'Link directions crossed, in order' }),
  source: Type.Optional(
    Literals(['flow', 'tables'], {
      description:
        "flow: a running flow's actual path (the emulator's); tables: the forwarding tables' route",
    }),
  ),
  flowId: Type.Optional(Type.String()),
  static: Type.Optional(
    Type.Object(
      {
        links: Type.Array(Type.String()),
        hops: Type.Array(
          Type.Object({
            node: Type.String(),
            inPort: Type.Optional(Type.Integer()),
            outPort: Type.Optional(Type.Integer()),
            link: Type.Optional(Type.String()),
          }),
        ),
      },
      { description: 'The forwarding tables’ route, when the traffic takes another (adaptive routing)' },
    ),
  ),
  engine: Type.Optional(
    Type.String({ description: 'Routing engine that built the tables (minhop, fattree, ibroute)' }),
  ),
  ecmp: Type.Optional(EcmpSetSchema),
  tables: Type.Optional(RouteTablesSchema),
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
export type Route = Static<typeof RouteSchema>;
export type RouteHop = Route['hops'][number];
export type RouteLatency = NonNullable<Route['latency']>;

export const StaticLoadQuery = Closed({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Ports listed, busiest first (default 20)' }),
  ),
  kind: Type.Optional(
    Literals(['isl', 'host'], {
      description: 'List only ports to switches (isl) or to hosts; the groups cover every port',
    }),
  ),
});
export type StaticLoadQuery = Static<typeof StaticLoadQuery>;

const StaticLoadDirectionSchema = Literals(['host', 'up', 'down', 'across'], {
  description: 'Where the port leads: a host, a higher tier, a lower tier, the same tier',
});

/** `GET /routes/static-load`: host-to-host paths per switch output port, as `ibdiagnet -r` counts them. */
export const StaticLoadSchema = Type.Object({
  tables: RouteTablesSchema,
  engine: Type.String(),
  sources: Type.Integer({ description: 'Host ports paths start from' }),
  destinations: Type.Integer({ description: 'Host LIDs paths go to' }),
  routed: Type.Number({ description: 'Paths that reach their destination' }),
  unrouted: Type.Number({
    description: 'Paths that end on a hole in a table, an uncabled port or a wrong node',
  }),
  looping: Type.Number({ description: 'Paths caught in a forwarding loop' }),
  computeMs: Type.Number({ description: 'Time the count took (once per set of tables)' }),
  groups: Type.Array(
    Type.Object({
      tier: Type.Integer({ description: 'Tier of the switch the ports belong to' }),
      direction: StaticLoadDirectionSchema,
      ports: Type.Integer({ description: 'Cabled output ports in the group' }),
      min: Type.Number(),
      max: Type.Number(),
      mean: Type.Number(),
      meanUtilization: Nullable(
        Type.Number({
          description: 'Mean utilization 0..1 measured on the ports of the group whose utilization is known',
        }),
      ),
      measuredPorts: Type.Integer({ description: 'Ports of the group whose utilization is known' }),
    }),
    {
      description:
        'Paths per port: fewest, most and mean by switch tier and direction, and the load measured',
    },
  ),
  ports: Type.Array(
    Type.Object({
      link: Type.String({ description: 'Link direction leaving the port' }),
      node: Type.String(),
      port: Type.Integer(),
      tier: Type.Integer(),
      direction: StaticLoadDirectionSchema,
      paths: Type.Number(),
      utilization: Nullable(
        Type.Number({ description: 'Utilization 0..1 measured leaving the port at `measured.time`' }),
      ),
    }),
    { description: 'The busiest switch output ports, most paths first (ties in link order)' },
  ),
  measured: Type.Object(
    {
      time: Nullable(Type.String(), {
        description: 'The instant the utilization was measured (the live tick); null before the first sample',
      }),
      ports: Type.Integer({ description: 'Switch output ports whose utilization is known' }),
      correlation: Nullable(
        Type.Number({
          description:
            "Pearson's correlation of paths and measured utilization over those ports (-1..1): near 1, static routing explains the load; null when fewer than two ports are known or either side is flat (an idle fabric)",
        }),
      ),
    },
    { description: 'The static load against the load measured now' },
  ),
});
export type StaticLoad = Static<typeof StaticLoadSchema>;
