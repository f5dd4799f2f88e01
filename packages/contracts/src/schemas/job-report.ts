import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals, Nullable } from './common.ts';
import { TimeParam } from './time.ts';

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
