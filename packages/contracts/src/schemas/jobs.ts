import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';

// `/api/v1/jobs`, `/api/v1/jobs/{id}` and `/api/v1/links/flows`: jobs in Slurm's vocabulary and
// the flows (live or estimated) behind a link direction.

export const NoQuery = Closed({});

/** Traffic patterns a jobs file may declare: host i to i+1 (and the last to the first), every pair, or the pairs given. */
export const JOB_PATTERNS = ['ring', 'all-to-all', 'pairs'] as const;
export type JobPatternName = (typeof JOB_PATTERNS)[number];
/** Most pairs one job's `pairs` pattern lists. */
export const MAX_DECLARED_PAIRS = 4160;

/** `GET /jobs`: a page of the jobs; with `alarm`, only the jobs affected by that alarm's directions. */
export const JobsQuery = Closed({
  alarm: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description:
        "An alarm's id: only the jobs whose flows (live or estimated) cross its listed directions now, most directions first",
    }),
  ),
  ...PageQueryFields,
});
export type JobsQuery = Static<typeof JobsQuery>;

export const JobSchema = Type.Object({
  id: Type.String({ description: "Slurm's job id; the job name for emulator jobs" }),
  name: Type.String(),
  user: Nullable(Type.String()),
  state: Type.String({ description: "Slurm's base state: RUNNING, PENDING, COMPLETING, …" }),
  nodes: Type.Array(Type.String(), { description: 'Hosts allocated, host lists expanded' }),
  startTime: Nullable(Type.String({ format: 'date-time' })),
  endTime: Type.Optional(
    Nullable(Type.String({ format: 'date-time', description: 'When it ended (accounting, a jobs file)' })),
  ),
  pattern: Type.Optional(
    Type.Object(
      {
        name: Literals(JOB_PATTERNS),
        pairs: Type.Optional(
          Type.Array(Type.Tuple([Type.String(), Type.String()]), {
            maxItems: MAX_DECLARED_PAIRS,
            description: 'Host pairs (from, to) of a `pairs` pattern',
          }),
        ),
      },
      { description: 'How its hosts talk, as a jobs file declares it' },
    ),
  ),
  crossing: Type.Optional(
    Type.Object(
      {
        directions: Type.Integer({ description: "The alarm's directions its flows cross" }),
        flows: Type.Integer({ description: 'Its flows crossing one of them (each flow once)' }),
      },
      { description: 'With `?alarm=`: how its traffic meets the alarm' },
    ),
  ),
});

export const JobsReply = Type.Object({
  source: Literals(['emulator', 'slurm', 'file', 'none']),
  skipped: Type.Optional(
    Type.Object(
      {
        total: Type.Integer(),
        entries: Type.Array(
          Type.Object({
            entry: Type.String({
              description: 'Where: `squeue line 12`, `squeue --json jobs[3]`, `<file> line 7: jobs[3]`',
            }),
            reason: Type.String(),
          }),
          { maxItems: 20, description: 'The first 20' },
        ),
      },
      { description: 'Entries of the source that could not be read as jobs: left out, the others answered' },
    ),
  ),
  jobs: Type.Array(JobSchema),
  ...PageAnswerFields,
});

export const FlowRowSchema = Type.Object({
  id: Type.Optional(Type.String({ description: "The emulator's flow id" })),
  from: Type.String(),
  to: Type.String(),
  job: Nullable(Type.String()),
  bytesPerSecond: Nullable(Type.Number(), {
    description: 'Payload bytes/s now; null when estimated',
  }),
  path: Type.Array(Type.String(), { description: 'Link directions crossed, in order' }),
  estimated: Type.Boolean({
    description: 'true: a node pair of a running job on its static route, not a measured flow',
  }),
  victimOf: Type.Optional(
    Type.String({
      description:
        'Lossless Ethernet: a victim flow, slowed by PFC pause from this full egress (link direction) its path does not cross',
    }),
  ),
});

export const JobDetailSchema = Type.Object({
  job: JobSchema,
  nodes: Type.Array(
    Type.Object({
      name: Type.String(),
      known: Type.Boolean({ description: 'Whether this fabric has the host' }),
      rails: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'The adapters (one per rail) the host name means, when it is not itself a node name; the job’s traffic is counted on each',
        }),
      ),
    }),
  ),
  estimated: Type.Boolean({ description: 'true when the flows are node pairs on static routes' }),
  flows: Type.Integer(),
  links: Type.Array(
    Type.Object({
      id: Type.String({ description: 'Link direction `node/port->node/port`' }),
      kind: Type.String(),
      flows: Type.Integer({ description: "The job's flows crossing it" }),
      totalFlows: Type.Integer({ description: 'Every flow crossing it' }),
      jobBytesPerSecond: Nullable(Type.Number()),
      totalBytesPerSecond: Nullable(Type.Number()),
      share: Nullable(Type.Number(), {
        description: "The job's share 0..1 of the traffic on it (bytes; flows when estimated)",
      }),
      estimated: Type.Boolean(),
    }),
    { description: "Link directions its traffic crosses, busiest first (the job's bytes/s)" },
  ),
  contention: Nullable(
    Type.Object(
      {
        engine: Type.String(),
        flowCount: Type.Integer(),
        maxIslLoad: Type.Integer({ description: 'Most of its flows on one ISL direction (static routes)' }),
        sharedIsls: Type.Integer({ description: 'ISL directions two or more of its flows share' }),
        aggregateGbps: Type.Number(),
        minFlowGbps: Type.Number(),
      },
      { description: "Predicted contention of the job's own flows under static routing, max-min fair" },
    ),
  ),
});

export const LinkFlowsQuery = Closed({
  id: Type.String({ minLength: 1, maxLength: 600, description: 'Link direction `node/port->node/port`' }),
  ...PageQueryFields,
});
export type LinkFlowsQuery = Static<typeof LinkFlowsQuery>;

export const LinkFlowsReply = Type.Object({
  id: Type.String(),
  estimated: Type.Boolean({
    description: 'true when no flow is measured (no emulator): routes of running jobs',
  }),
  flows: Type.Array(FlowRowSchema, { description: 'A page of the flows, busiest first' }),
  ...PageAnswerFields,
  jobs: Type.Array(
    Type.Object({
      job: Nullable(Type.String()),
      flows: Type.Integer(),
      bytesPerSecond: Nullable(Type.Number()),
    }),
  ),
});

export type Job = Static<typeof JobSchema>;
export type JobList = Static<typeof JobsReply>;
export type JobDetail = Static<typeof JobDetailSchema>;
export type LinkFlow = Static<typeof FlowRowSchema>;
export type LinkFlows = Static<typeof LinkFlowsReply>;
