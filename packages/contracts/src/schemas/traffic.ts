import { type Static, Type } from '@sinclair/typebox';
import {
  MAX_DURATION_SECONDS,
  MAX_RATE_BYTES_PER_SECOND,
  MAX_SIZE_BYTES,
  STARTED_FLOWS_LISTED,
} from '../limits.ts';
import { TRAFFIC_PATTERNS } from '../names.ts';
import { Closed, HostList, HostName, Literals, Nullable, Quantity } from './common.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';

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
export const TrafficItem = Closed(
  {
    pattern: Literals(TRAFFIC_PATTERNS, {
      description:
        'pairs (osu_mbw_mr style), shift, permutation, all-to-all, incast, bisection, iperf, storage',
    }),
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
    clients: Type.Optional(HostList({ description: 'storage: clients (default all others)' })),
    op: Type.Optional(Literals(['read', 'write'])),
    ioSize: Type.Optional(Quantity('storage: I/O size, bytes or "1MiB"', MAX_SIZE_BYTES)),
    jobs: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1024, description: 'storage: streams per client' }),
    ),
    hosts: Type.Optional(HostList({ description: 'hosts a collective pattern runs on' })),
    start: Type.Optional(Quantity('seconds from now, or "500ms"', MAX_DURATION_SECONDS)),
    duration: Type.Optional(Quantity('seconds, or "10s"; default until stopped', MAX_DURATION_SECONDS)),
    messageSize: Type.Optional(Quantity('bytes, or "4KiB"', MAX_SIZE_BYTES)),
    demand: Type.Optional(
      Quantity(
        'bytes/s per flow, or "50Gb/s"; default as fast as the path allows',
        MAX_RATE_BYTES_PER_SECOND,
      ),
    ),
    transport: Type.Optional(Literals(['rdma', 'ip'])),
    job: Type.Optional(JobName),
  },
  {
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
  Closed({ items: Type.Array(TrafficItem, { minItems: 1, maxItems: 1000 }), job: Type.Optional(JobName) }),
]);
export type TrafficRequest = Static<typeof TrafficRequest>;

/** One flow of the emulator (GET /v1/flows, /api/v1/traffic). */
export const FlowSchema = Type.Object({
  id: Type.String(),
  from: Type.String(),
  to: Type.String(),
  bytesPerSecond: Type.Number({
    description: 'Payload bytes/s the flow gets now (0 before its start or while its path is broken)',
  }),
  path: Type.Array(Type.String(), { description: 'Link directions `node/port->node/port`, in path order' }),
  pattern: Literals(TRAFFIC_PATTERNS),
  job: Type.String({
    description: 'The job the flow belongs to: named in the request, or generated (`pairs-1`)',
  }),
  transport: Literals(['rdma', 'ip']),
  messageBytes: Nullable(Type.Number(), {
    description: 'Message (or I/O) size in bytes; null for large messages',
  }),
  state: Literals(['pending', 'running'], {
    description: 'pending (before its start) or running; a flow is removed when its duration ends',
  }),
  startMs: Type.Number(),
  endMs: Nullable(Type.Number(), { description: 'null: runs until stopped' }),
  ecnMarked: Type.Optional(
    Type.Boolean({
      description: 'Lossless Ethernet: its RoCE packets are ECN-marked at a full switch egress',
    }),
  ),
  victimOf: Type.Optional(
    Type.String({
      description:
        'Lossless Ethernet: a victim flow, slowed by PFC pause from this full egress (link direction) its path does not cross',
    }),
  ),
});
export type FlowInfo = Static<typeof FlowSchema>;

export const FlowsSchema = Type.Object({ flows: Type.Array(FlowSchema) });
export type FlowList = Static<typeof FlowsSchema>;
export type FlowPage = Static<typeof FlowsPageSchema>;
export type TrafficStarted = Static<typeof TrafficStartedSchema>;

export const TrafficQuery = Closed({
  job: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'Only the flows of this job' }),
  ),
  ...PageQueryFields,
});
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

/** `POST /api/v1/traffic`: what was started, not every flow (`GET /traffic?job=` pages them). */
export const TrafficStartedSchema = Type.Object({
  started: Type.Integer({ description: 'Flows started' }),
  jobs: Type.Array(Type.String(), { description: 'The jobs they belong to' }),
  bytesPerSecond: Type.Number({ description: 'Their bytes/s together, as the emulator first rated them' }),
  flows: Type.Array(FlowSchema, { description: `The first ${STARTED_FLOWS_LISTED} of them` }),
});
