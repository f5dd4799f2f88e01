import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';
import { PageAnswerFields, PageQueryFields } from './paging.ts';
import { TimeParam } from './time.ts';

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

// `/api/v1/jobs/{id}/report`: what slowed a job over its run (or a window of it), from the store's history.

/** Most host pairs listed with their routes; the rest are counted in `routes.omitted`. */
export const REPORT_MAX_ROUTES = 64;
/** Most link directions listed; the rest, the calmest, are counted in `directionsOmitted`. */
export const REPORT_MAX_DIRECTIONS = 100;
/** Most culprits, victims, evidence instants, other users per direction and hosts listed. */
export const REPORT_MAX_ROWS = 20;

export const JobReportQuery = Closed({
  from: Type.Optional(TimeParam("Start; absent = the job's start")),
  to: Type.Optional(TimeParam("End; absent = the job's end, or now while it runs")),
});
export type JobReportQuery = Static<typeof JobReportQuery>;

const Seconds = Type.Number({ minimum: 0, description: 'Seconds' });

/** A figure over the window: null where no sample of it was known. */
const FigureStats = Type.Object(
  {
    mean: Nullable(Type.Number()),
    p95: Nullable(Type.Number()),
    max: Nullable(Type.Number()),
    secondsAbove: Type.Array(Type.Object({ threshold: Type.Number(), seconds: Seconds }), {
      description: 'Time at or above each threshold (fractions 0..1), lowest threshold first',
    }),
  },
  { description: 'Over the known samples of the window; null when none was known' },
);

const ShareOfUser = Type.Object({
  job: Nullable(Type.String({ description: 'null: traffic of no job' })),
  share: Type.Number({
    description: 'Its share 0..1 of the traffic on the direction (bytes; flows when estimated)',
  }),
  flows: Type.Integer(),
});

export const ReportDirectionSchema = Type.Object({
  id: Type.String({ description: 'Link direction `node/port->node/port` (a link page can open it)' }),
  kind: Type.String(),
  jobFlows: Type.Integer({ description: "The job's routes crossing it" }),
  jobShare: Nullable(Type.Number({ description: "The job's share 0..1 of its traffic" })),
  utilization: FigureStats,
  transmitWait: FigureStats,
  knownSeconds: Seconds,
  behindSeconds: Type.Number({
    minimum: 0,
    description:
      'Time it was congested (utilization ≥ the hot threshold or XmitWait ≥ the congestion threshold)',
  }),
  errors: Type.Object({
    raised: Type.Integer({ description: 'Integrity thresholds crossed in the window (the event log)' }),
    erroredSeconds: Seconds,
  }),
  state: Type.Object({
    flaps: Type.Integer({ description: 'Link down events in the window' }),
    downSeconds: Seconds,
  }),
  users: Type.Array(ShareOfUser, {
    maxItems: REPORT_MAX_ROWS,
    description: 'Other users of it, largest first',
  }),
});

const Blame = Type.Object({
  job: Type.String(),
  direction: Type.String({ description: 'The direction where it weighed most' }),
  share: Type.Number({ description: 'Its share 0..1 of the traffic on that direction' }),
  behindShare: Type.Number({
    description:
      "Of the reported job's window, the share 0..1 it spent behind that direction accounted for by this job: time behind × share",
  }),
  directions: Type.Integer({ description: 'Congested directions it shares with the reported job' }),
});

export const JobReportSchema = Type.Object({
  job: Type.Object({
    id: Type.String(),
    name: Type.String(),
    user: Nullable(Type.String()),
    state: Type.String(),
    startTime: Nullable(Type.String({ format: 'date-time' })),
    endTime: Nullable(Type.String({ format: 'date-time', description: 'null while it runs' })),
    hosts: Type.Integer(),
    hostsOnFabric: Type.Integer(),
  }),
  window: Type.Object({
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    stepSeconds: Type.Number({ description: 'Step of the history the figures are computed from' }),
    asked: Type.Boolean({ description: "false: the job's run (clipped to the store's history)" }),
  }),
  pattern: Type.Object({
    kind: Literals(['measured', 'declared', 'assumed']),
    name: Type.String({ description: 'pairs, ring, all-to-all, …; `every pair` when assumed' }),
    pairs: Type.Integer(),
    statement: Type.String({ description: 'Where the pattern comes from, said plainly' }),
  }),
  routes: Type.Object({
    source: Literals(['measured', 'subnet-manager', 'computed'], {
      description:
        "measured: the flows' paths as they run (adaptive routing included); subnet-manager: the forwarding tables as the subnet manager programmed them; computed: fabscope's own tables (no subnet manager read)",
    }),
    adaptiveRouting: Type.Object(
      {
        state: Literals(['on', 'off', 'unavailable', 'unknown']),
        detail: Type.String({ description: 'As the fabric manager says it now (not over the window)' }),
      },
      { description: 'on: traffic may leave the forwarding tables’ routes where they are congested' },
    ),
    total: Type.Integer({ description: 'Routes (a pair per rail)' }),
    listed: Type.Array(
      Type.Object({ from: Type.String(), to: Type.String(), path: Type.Array(Type.String()) }),
      { maxItems: REPORT_MAX_ROUTES },
    ),
    omitted: Type.Integer({ description: 'Routes not listed' }),
  }),
  directions: Type.Array(ReportDirectionSchema, {
    maxItems: REPORT_MAX_DIRECTIONS,
    description: 'Link directions its routes cross, the worst first (time behind, errors, state)',
  }),
  directionsTotal: Type.Integer(),
  culprits: Type.Array(Blame, {
    maxItems: REPORT_MAX_ROWS,
    description:
      'Jobs sharing its congested directions, by the share of its time behind them they account for',
  }),
  victims: Type.Array(Blame, {
    maxItems: REPORT_MAX_ROWS,
    description:
      'Jobs it slowed: on directions it congested, by the share of their time behind them it accounts for',
  }),
  verdict: Type.Object({
    cause: Literals(['congestion', 'errors', 'link-state', 'none', 'unknown']),
    text: Type.String({ description: 'A plain sentence; "no fabric cause found" when none' }),
  }),
  evidence: Type.Array(
    Type.Object({
      time: Type.String({
        format: 'date-time',
        description: 'An instant a link page can travel to (?time=)',
      }),
      direction: Type.String(),
      what: Type.String(),
    }),
    { maxItems: REPORT_MAX_ROWS },
  ),
  unknowns: Type.Object({
    hostsNotOnFabric: Type.Array(Type.String(), { maxItems: REPORT_MAX_ROWS }),
    hostsNotOnFabricTotal: Type.Integer(),
    unknownSeconds: Type.Number({
      minimum: 0,
      description:
        'Most time of the window one of its directions went without a sample (collection gaps, history not reaching back)',
    }),
    gaps: Type.Array(
      Type.Object({
        time: Type.String({ format: 'date-time' }),
        subject: Type.String({
          description: 'A port `node/port` of its directions, or `fabric` (all collection)',
        }),
        what: Type.String(),
      }),
      {
        maxItems: REPORT_MAX_ROWS,
        description: 'Collection stopping and coming back in the window (the event log), oldest first',
      },
    ),
    gapsTotal: Type.Integer(),
    notes: Type.Array(Type.String(), { description: 'What else is unknown, said' }),
  }),
});

export type JobReport = Static<typeof JobReportSchema>;
export type ReportDirection = Static<typeof ReportDirectionSchema>;
