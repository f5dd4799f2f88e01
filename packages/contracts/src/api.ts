import { type ObjectOptions, type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import { FabricTypeSchema, NodeTypeSchema } from './emulator.ts';
import { ERROR_FIELDS } from './errors.ts';
import { CATEGORY_NAMES, TRAFFIC_PATTERNS } from './names.ts';
import { Nullable } from './nullable.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';
import { TimeParam } from './time.ts';

/** An object with one property per key, each of `schema` (its type keeps the keys). */
function recordOf<K extends string, T extends TSchema>(
  keys: readonly K[],
  schema: T,
  options?: ObjectOptions,
): TObject<Record<K, T>> {
  return Type.Object(Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, T>, options);
}

export const ErrorReply = Type.Object(
  { statusCode: Type.Integer(), error: Type.String(), message: Type.String() },
  { $id: 'ErrorReply', description: 'A 4xx or 5xx answer: `message` says what was wrong' },
);

export const PortRefSchema = Type.Object({ node: Type.String(), port: Type.Integer() });

/** `isl`: switch to switch; `host`: a host's or router's cable. */
export const LinkKindSchema = Type.Union([Type.Literal('host'), Type.Literal('isl')]);
export type LinkKind = Static<typeof LinkKindSchema>;

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('degraded')], {
    description:
      'ok: newest sample at most staleAfterSeconds old; stale: older, or none yet; degraded: the store fails',
  }),
  store: Type.Union([Type.Literal('embedded'), Type.Literal('prometheus')]),
  liveSource: Type.Optional(
    Type.Literal('collectors', {
      description:
        "Present when the live view is read from the collectors beside the TSDB (FABSCOPE_LIVE_SOURCE=collectors); history, events and alerts are still the TSDB's",
    }),
  ),
  lastSampleAgeSeconds: Nullable(
    Type.Number({ description: 'Age of the newest counter sample; null before any' }),
  ),
  intervalMs: Type.Integer({ description: 'Sampling tick: a stream message is due this often' }),
  staleAfterSeconds: Type.Number({ description: 'Data older than this is stale (the one staleness policy)' }),
  topologyVersion: Type.Optional(
    Type.Integer({
      description:
        'Version of the topology the API draws and measures (absent: as loaded, 0): it changes when the API starts drawing a re-discovered fabric — fetch /topology again',
    }),
  ),
  error: Type.Optional(
    Type.String({
      description: 'What is wrong; internal addresses shown only to this machine or with the token',
    }),
  ),
  eventLoopDelayMs: Type.Optional(
    Type.Number({
      description:
        "The API's event-loop delay: mean over the last second, in ms (answers wait about this long to start)",
    }),
  ),
  eventLoopUtilization: Type.Optional(
    Type.Number({ description: 'Share 0..1 of the last second the event loop was busy' }),
  ),
  topology: Type.Optional(
    Type.Object(
      {
        changed: Type.Boolean({
          description: 'The fabric as last discovered differs from the one the API loaded',
        }),
        version: Type.Integer({ description: 'Topology version now (GET /topology/changes)' }),
        discoveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        summary: Type.String({
          description: 'For people: "topology changed: 1 link removed"',
        }),
      },
      { description: 'Live discovery of the topology (FABSCOPE_FABRIC=infiniband), when it runs' },
    ),
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
  version: Type.Optional(
    Type.Integer({
      description:
        "The drawn topology's version (health.topologyVersion); absent as loaded and in a past instant's answer",
    }),
  ),
  fabricType: FabricTypeSchema,
  nodes: Type.Array(
    Type.Object({
      name: Type.String(),
      type: NodeTypeSchema,
      tier: Type.Integer({ description: '0 hosts and routers, 1 edge, 2 core …' }),
      guid: Type.String(),
      lid: Type.Integer(),
    }),
  ),
  links: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: LinkKindSchema,
      a: PortRefSchema,
      b: PortRefSchema,
      rateGbps: Type.Number(),
      fabricType: Type.Optional(
        Type.Union(FabricTypeSchema.anyOf, {
          description: "The cable's network where it differs from the fabric's type",
        }),
      ),
    }),
  ),
});

export const LinkStateSchema = Type.Object({
  id: Type.String({ description: 'Link direction `node/port->node/port`' }),
  linkId: Type.String(),
  kind: LinkKindSchema,
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
  errors: recordOf(ERROR_FIELDS, Nullable(Type.Number()), {
    description:
      'Error, congestion and bubble counters per second (linkQualityIndicator 0..5 and linkWidthDowngradeLanes as values): the sending port for transmit counters, the receiving port for receive counters, the worse end for link counters; null when unknown (docs/metrics.md)',
  }),
  errorsPerSecond: Nullable(
    Type.Number({
      description:
        'Every error counter of `errors` together, per second (not the congestion or bubble counters, nor the gauges); null when none is known',
    }),
  ),
  categories: recordOf(CATEGORY_NAMES, Nullable(Type.Number()), {
    description:
      "opafm's PM categories as fractions of their thresholds (1 = threshold reached); null when none of a category's counters is known",
  }),
});

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

export const LinksQuery = Type.Object(
  {
    sort: Type.Optional(
      Type.Union([
        Type.Literal('utilization'),
        Type.Literal('bytesPerSecond'),
        Type.Literal('transmitWaitFraction'),
        Type.Literal('id'),
        ...CATEGORY_NAMES.map((c) => Type.Literal(c)),
      ]),
    ),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    ...PageQueryFields,
    kind: Type.Optional(Type.Union([Type.Literal('isl'), Type.Literal('host')])),
    job: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'Only the link directions the job’s traffic crosses now (GET /jobs/{id})',
      }),
    ),
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

/** Where the forwarding tables behind an answer came from. */
export const RouteTablesSchema = Type.Union(
  [
    Type.Object({
      source: Type.Literal('sm'),
      from: Type.Union(
        [
          Type.Literal('lfts-dump'),
          Type.Literal('ibroute'),
          Type.Literal('dump_fts'),
          Type.Literal('emulator'),
        ],
        {
          description:
            "lfts-dump: OpenSM's opensm-lfts.dump (FABSCOPE_LFTS); ibroute, dump_fts: the switches' tables read with that tool; emulator: the emulated fabric manager's sweeps",
        },
      ),
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
      utilization: Type.Optional(
        Type.Union([Type.Number(), Type.Null()], {
          description: 'Live utilization 0..1 of the link leaving this hop; null when unknown',
        }),
      ),
      bytesPerSecond: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      transmitWaitFraction: Type.Optional(
        Type.Union([Type.Number(), Type.Null()], {
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
    Type.Union([Type.Literal('flow'), Type.Literal('tables')], {
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

export const StaticLoadQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Ports listed, busiest first (default 20)' }),
    ),
    kind: Type.Optional(
      Type.Union([Type.Literal('isl'), Type.Literal('host')], {
        description: 'List only ports to switches (isl) or to hosts; the groups cover every port',
      }),
    ),
  },
  { additionalProperties: false },
);
export type StaticLoadQuery = Static<typeof StaticLoadQuery>;

const StaticLoadDirectionSchema = Type.Union(
  [Type.Literal('host'), Type.Literal('up'), Type.Literal('down'), Type.Literal('across')],
  { description: 'Where the port leads: a host, a higher tier, a lower tier, the same tier' },
);

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
      time: Type.Union([Type.String(), Type.Null()], {
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

export const AdaptiveRoutingSchema = Type.Object({
  enabled: Type.Boolean({ description: 'opafm <Enable>' }),
  lostRouteOnly: Type.Boolean({ description: 'opafm <LostRouteOnly>: reroute only around failed links' }),
  algorithm: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
    description: '0 Random, 1 Greedy, 2 GreedyRandom',
  }),
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
export type AdaptiveRouting = Static<typeof AdaptiveRoutingSchema>;
export const AdaptiveRoutingPatch = Type.Partial(AdaptiveRoutingSchema, {
  additionalProperties: false,
  minProperties: 1,
});
export type AdaptiveRoutingPatch = Static<typeof AdaptiveRoutingPatch>;

/** Who manages adaptive routing: the demo's emulated fabric manager, or the site's opafm.xml. */
export const AdaptiveRoutingSource = Type.Union([Type.Literal('emulator'), Type.Literal('opafm.xml')]);
/** The settings where the fabric has adaptive routing, with where they come from. */
export const AdaptiveRoutingAvailable = Type.Composite([
  AdaptiveRoutingSchema,
  Type.Object({ available: Type.Literal(true), source: AdaptiveRoutingSource }),
]);
export type AdaptiveRoutingAvailable = Static<typeof AdaptiveRoutingAvailable>;
/** The fabric has no adaptive routing fabscope can manage, and why (PUT answers 409 with it). */
export const AdaptiveRoutingUnavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.String({ description: 'e.g. "upstream OpenSM has no adaptive routing"' }),
});
export type AdaptiveRoutingUnavailable = Static<typeof AdaptiveRoutingUnavailable>;
/** `GET /adaptive-routing`: the settings (as before, plus `available: true`), or why there are none. */
export const AdaptiveRoutingStatusSchema = Type.Union([AdaptiveRoutingAvailable, AdaptiveRoutingUnavailable]);
export type AdaptiveRoutingStatus = Static<typeof AdaptiveRoutingStatusSchema>;

/** A command fabscope ran without a shell (opa-fm's config_check, the site's apply command). */
export const CommandOutcomeSchema = Type.Object({
  command: Type.Array(Type.String()),
  ok: Type.Boolean({ description: 'exited 0 in time' }),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  signal: Type.Union([Type.String(), Type.Null()]),
  timedOut: Type.Boolean(),
  stdout: Type.String({ description: 'its last 4 KiB' }),
  stderr: Type.String({ description: 'its last 4 KiB' }),
  error: Type.Optional(Type.String({ description: 'why it could not be started' })),
  durationMs: Type.Number(),
});
export type CommandOutcome = Static<typeof CommandOutcomeSchema>;

/** What a PUT did to opafm.xml. */
export const OpafmXmlChangeSchema = Type.Object({
  file: Type.String(),
  written: Type.Boolean({
    description: 'false: the file already said so; nothing written, validated or applied',
  }),
  backup: Type.Union([Type.String(), Type.Null()], { description: 'copy of the file before the change' }),
  diff: Type.String({ description: 'unified diff of the <AdaptiveRouting> section' }),
  validator: Type.Union([CommandOutcomeSchema, Type.Null()], {
    description: 'config_check on the edited file',
  }),
  apply: Type.Union([CommandOutcomeSchema, Type.Null()], {
    description: 'FABSCOPE_OPAFM_APPLY, run after the write; null when none is set or nothing was written',
  }),
});
export type OpafmXmlChange = Static<typeof OpafmXmlChangeSchema>;
/** `PUT /adaptive-routing`: the new settings; with opafm.xml, what was done to the file. */
export const AdaptiveRoutingChangeSchema = Type.Composite([
  AdaptiveRoutingAvailable,
  Type.Object({ change: Type.Optional(OpafmXmlChangeSchema) }),
]);
export type AdaptiveRoutingChange = Static<typeof AdaptiveRoutingChangeSchema>;

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
const JobName = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$',
  description: 'The job the flows belong to (GET /jobs); default a generated name per request',
});

/** The fields each pattern needs: the schema states them (allOf below) and the API checks them. */
export const TRAFFIC_FIELDS_NEEDED = {
  pairs: ['pairs'],
  shift: ['k'],
  permutation: [],
  'all-to-all': [],
  incast: ['to'],
  bisection: [],
  iperf: ['from', 'to'],
  storage: ['server', 'op'],
} as const satisfies Record<(typeof TRAFFIC_PATTERNS)[number], readonly string[]>;

/** One traffic item; the fields each pattern needs are stated per pattern (if/then). */
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
    job: Type.Optional(JobName),
  },
  {
    additionalProperties: false,
    allOf: Object.entries(TRAFFIC_FIELDS_NEEDED)
      .filter(([, fields]) => fields.length > 0)
      .map(([pattern, fields]) => ({
        if: { properties: { pattern: { const: pattern } }, required: ['pattern'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, a schema never awaited
        then: { required: [...fields] },
      })),
  },
);
export type TrafficItem = Static<typeof TrafficItem>;

export const TrafficRequest = Type.Union([
  TrafficItem,
  Type.Object(
    { items: Type.Array(TrafficItem, { minItems: 1, maxItems: 1000 }), job: Type.Optional(JobName) },
    { additionalProperties: false },
  ),
]);
export type TrafficRequest = Static<typeof TrafficRequest>;

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

/**
 * What each fault type takes besides `type` and what it needs; the schema states it per type
 * (allOf below) and the emulator reads the same table (packages/emulator/src/faults.ts).
 */
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

export const FaultRequest = Type.Object(
  {
    type: Type.Union(
      FAULT_TYPES.map((t) => Type.Literal(t)),
      {
        description:
          'link-down/up, flap, symbol-errors, switch-down/up, restart (counters from 0), clear-counters; the counters of the PM categories: link-integrity, constraint-errors (security), switch-relay-errors (routing), vl15-drops, buffer-overruns, uncorrectable-errors (rate/s), link-quality (quality 0..5), link-width-downgrade (lanes 0..3)',
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
  { additionalProperties: false, allOf: FAULT_TYPES.map(faultRule) },
);
export type FaultRequest = Static<typeof FaultRequest>;

/** An active fault (GET /v1/faults of the emulator, /api/v1/faults), or the record of a one-off event. */
export const FaultSchema = Type.Object({
  id: Type.String(),
  type: Type.Union(FAULT_TYPES.map((t) => Type.Literal(t))),
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

/** One flow of the emulator (GET /v1/flows, /api/v1/traffic). */
export const FlowSchema = Type.Object({
  id: Type.String(),
  from: Type.String(),
  to: Type.String(),
  bytesPerSecond: Type.Number({
    description: 'Payload bytes/s the flow gets now (0 before its start or while its path is broken)',
  }),
  path: Type.Array(Type.String(), { description: 'Link directions `node/port->node/port`, in path order' }),
  pattern: Type.Union(TRAFFIC_PATTERNS.map((p) => Type.Literal(p))),
  job: Type.String({
    description: 'The job the flow belongs to: named in the request, or generated (`pairs-1`)',
  }),
  transport: Type.Union([Type.Literal('rdma'), Type.Literal('ip')]),
  messageBytes: Type.Union([Type.Number(), Type.Null()], {
    description: 'Message (or I/O) size in bytes; null for large messages',
  }),
  state: Type.Union([Type.Literal('pending'), Type.Literal('running')], {
    description: 'pending (before its start) or running; a flow is removed when its duration ends',
  }),
  startMs: Type.Number(),
  endMs: Type.Union([Type.Number(), Type.Null()], { description: 'null: runs until stopped' }),
});
export type FlowInfo = Static<typeof FlowSchema>;
export type TrafficPattern = (typeof TRAFFIC_PATTERNS)[number];

export const FlowsSchema = Type.Object({ flows: Type.Array(FlowSchema) });

/** The answer of `GET /api/v1/links` (also at `?time=`): link directions at one sampling tick. */
export const LinksAnswerSchema = Type.Object({
  time: Type.String({ description: 'The instant every page of this list was read at' }),
  links: Type.Array(LinkStateSchema),
  ...PageAnswerFields,
});

/** `GET /api/v1/links/export`: every direction of one instant, streamed. */
export const LinksExportQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Literal('ndjson', {
        description: 'ndjson (default): one link direction (LinkStateSchema) per line, in topology order',
      }),
    ),
    time: Type.Optional(TimeParam('The instant; absent = now')),
    kind: Type.Optional(Type.Union([Type.Literal('isl'), Type.Literal('host')])),
  },
  { additionalProperties: false },
);
export type LinksExportQuery = Static<typeof LinksExportQuery>;

export const TrafficQuery = Type.Object(
  {
    job: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Only the flows of this job' }),
    ),
    ...PageQueryFields,
  },
  { additionalProperties: false },
);
export type TrafficQuery = Static<typeof TrafficQuery>;

/** `GET /api/v1/traffic`: a page of the flows the emulator runs, and every job's totals. */
export const FlowsPageSchema = Type.Object({
  flows: Type.Array(FlowSchema),
  ...PageAnswerFields,
  jobs: Type.Array(
    Type.Object({ job: Type.String(), flows: Type.Integer(), bytesPerSecond: Type.Number() }),
    { description: 'Every job of the whole list (not only this page): its flows and their bytes/s' },
  ),
});

/** How many flows of a POST /traffic answer are listed (the first ones, in the emulator's order). */
export const STARTED_FLOWS_LISTED = 20;

/** `POST /api/v1/traffic`: what was started, not every flow (`GET /traffic?job=` pages them). */
export const TrafficStartedSchema = Type.Object({
  started: Type.Integer({ description: 'Flows started' }),
  jobs: Type.Array(Type.String(), { description: 'The jobs they belong to' }),
  bytesPerSecond: Type.Number({ description: 'Their bytes/s together, as the emulator first rated them' }),
  flows: Type.Array(FlowSchema, { description: `The first ${STARTED_FLOWS_LISTED} of them` }),
});

export type ErrorBody = Static<typeof ErrorReply>;
export type PortRef = Static<typeof PortRefSchema>;
export type Health = Static<typeof HealthSchema>;
export type StoreKind = Health['store'];
export type Topology = Static<typeof TopologySchema>;
export type TopologyNode = Topology['nodes'][number];
export type TopologyLink = Topology['links'][number];
/** One direction of a link: what `/links` rows, the stream and the dashboard's strokes are about. */
export type LinkDirectionState = Static<typeof LinkStateSchema>;
export type LinksAnswer = Static<typeof LinksAnswerSchema>;
export type Summary = Static<typeof SummarySchema>;
export type UtilizationHistogram = Summary['histogram'];
export type Route = Static<typeof RouteSchema>;
export type RouteHop = Route['hops'][number];
export type RouteLatency = NonNullable<Route['latency']>;
export type FaultList = Static<typeof FaultsSchema>;
export type FlowList = Static<typeof FlowsSchema>;
export type FlowPage = Static<typeof FlowsPageSchema>;
export type TrafficStarted = Static<typeof TrafficStartedSchema>;

/** `GET /port`: a switch's or host's ports, or one port in full. */
export const PortQuery = Type.Object(
  {
    node: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The node: its name, NodeDescription, GUID (0x…) or LID (lid:12)',
    }),
    port: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 255, description: 'One port; absent: every port of the node' }),
    ),
  },
  { additionalProperties: false },
);
export type PortQuery = Static<typeof PortQuery>;

const PortEnd = Type.Object({ node: Type.String(), port: Type.Integer() });

export const PortReplySchema = Type.Object({
  node: Type.Object({
    name: Type.String(),
    type: NodeTypeSchema,
    tier: Type.Integer(),
    guid: Type.String(),
    lid: Type.Integer(),
    description: Type.Optional(Type.String()),
    portCount: Type.Integer(),
  }),
  time: Type.String({ description: 'The live tick the figures are of' }),
  ports: Type.Array(
    Type.Object({
      port: Type.Integer(),
      neighbour: PortEnd,
      linkId: Type.String(),
      kind: LinkKindSchema,
      rateGbps: Type.Number({ description: 'Signalling rate of the cable' }),
      widthSpeed: Type.Optional(
        Type.String({ description: 'Width × speed as discovery printed it (4xEDR)' }),
      ),
      linkUp: Type.Union([Type.Boolean(), Type.Null()]),
      out: Type.Union([LinkStateSchema, Type.Null()]),
      in: Type.Union([LinkStateSchema, Type.Null()]),
    }),
    {
      description:
        'The cabled ports asked for, in port order: each direction with every counter rate and category',
    },
  ),
});
export type PortReply = Static<typeof PortReplySchema>;
