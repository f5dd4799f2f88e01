import {
  type JobReport,
  REPORT_MAX_DIRECTIONS,
  REPORT_MAX_ROUTES,
  REPORT_MAX_ROWS,
  type ReportDirection,
} from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { FabricEvent } from '../../lib/fabric-event.ts';
import type { LinkColumn } from '../../store/time-queries.ts';
import type { Job } from '../job.ts';
import type { JobFlow } from '../job-flows.ts';
import { type DirectionEvents, eventsByDirection } from './direction-events.ts';
import { type DirectionFigures, directionFigures, FiguresScratch } from './direction-figures.ts';
import { type DirectionUser, usersByDirection } from './direction-users.ts';
import { blame } from './job-blame.ts';
import type { ReportThresholds } from './thresholds.ts';
import { impactSeconds, isCause, verdictOf } from './verdict.ts';

/** Everything a job's report is computed from: gathered by the route, reduced here without I/O. */
export interface ReportInput {
  job: Job;
  hostsNotOnFabric: readonly string[];
  hostsOnFabric: number;
  window: { fromMs: number; toMs: number; stepMs: number; asked: boolean };
  pattern: JobReport['pattern'];
  routesSource: JobReport['routes']['source'];
  adaptiveRouting: JobReport['routes']['adaptiveRouting'];
  /** The job's routes (a pair per rail), each with the directions it crosses. */
  own: readonly JobFlow[];
  /** The other jobs' flows (those crossing none of the job's directions are ignored). */
  others: readonly JobFlow[];
  /** The store's history of the job's directions over the window, as columns (direction-history.ts). */
  history: readonly LinkColumn[];
  /** The event log's and the store's events, in time order. */
  events: readonly FabricEvent[];
  kindOf(id: string): string | undefined;
  linkOf(id: string): string | undefined;
  thresholds: ReportThresholds;
  notes?: readonly string[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const NO_HISTORY = {
  timesMs: new Float64Array(),
  utilization: new Float64Array(),
  transmitWaitFraction: new Float64Array(),
};

/** A job's fabric report: its directions' figures over the window, culprits, victims, verdict, evidence, unknowns. */
export function jobFabricReport(input: ReportInput): JobReport {
  const { job, window: w, thresholds: t } = input;
  const windowSeconds = Math.max(0, (w.toMs - w.fromMs) / 1000);
  const ids = new Set<string>();
  for (const f of input.own) for (const id of f.path) ids.add(id);
  // Copied only when some flow is mislabelled: the route's own flows are the job's, its others are not.
  const own = input.own.every((f) => f.job === job.id)
    ? input.own
    : input.own.map((f) => ({ ...f, job: job.id }));
  const others = input.others.some((f) => f.job === job.id)
    ? input.others.filter((f) => f.job !== job.id)
    : input.others;
  const users = usersByDirection(ids, [own, others]);
  const figures = new Map<string, DirectionFigures>();
  const scratch = new FiguresScratch();
  for (const h of input.history)
    if (ids.has(h.id)) figures.set(h.id, directionFigures(h, w.stepMs, t, scratch));
  const events = eventsByDirection([...ids], input.linkOf, input.events, w.fromMs, w.toMs);
  const directions = [...ids]
    .map((id) =>
      directionRow(id, input, figures.get(id) ?? directionFigures(NO_HISTORY, w.stepMs, t), events, users),
    )
    .sort(byImpact);
  const { culprits, victims } = blame(
    job.id,
    directions.map((d) => ({ id: d.id, behindSeconds: d.behindSeconds, users: users.get(d.id) ?? [] })),
    windowSeconds,
  );
  const listed = directions.slice(0, REPORT_MAX_DIRECTIONS);
  return {
    job: {
      id: job.id,
      name: job.name,
      user: job.user,
      state: job.state,
      startTime: job.startTime,
      endTime: job.endTime ?? null,
      hosts: job.nodes.length,
      hostsOnFabric: input.hostsOnFabric,
    },
    window: { from: iso(w.fromMs), to: iso(w.toMs), stepSeconds: w.stepMs / 1000, asked: w.asked },
    pattern: input.pattern,
    routes: {
      source: input.routesSource,
      adaptiveRouting: input.adaptiveRouting,
      total: input.own.length,
      listed: input.own
        .slice(0, REPORT_MAX_ROUTES)
        .map((f) => ({ from: f.from, to: f.to, path: [...f.path] })),
      omitted: Math.max(0, input.own.length - REPORT_MAX_ROUTES),
    },
    directions: listed.map((d) => ({ ...d, users: d.users.slice(0, REPORT_MAX_ROWS) })),
    directionsTotal: directions.length,
    culprits,
    victims,
    verdict: verdictOf(job.id, directions, culprits, windowSeconds, t),
    evidence: evidenceOf(directions, figures, events, windowSeconds),
    unknowns: {
      hostsNotOnFabric: input.hostsNotOnFabric.slice(0, REPORT_MAX_ROWS),
      hostsNotOnFabricTotal: input.hostsNotOnFabric.length,
      unknownSeconds: directions.reduce((most, d) => Math.max(most, windowSeconds - d.knownSeconds), 0),
      ...gapsOf(ids, input.events, w.fromMs, w.toMs),
      notes: [...(input.notes ?? [])],
    },
  };
}

function directionRow(
  id: string,
  input: ReportInput,
  f: DirectionFigures,
  events: ReadonlyMap<string, DirectionEvents>,
  users: ReadonlyMap<string, DirectionUser[]>,
): ReportDirection {
  const e = events.get(id) as DirectionEvents;
  const on = users.get(id) ?? [];
  return {
    id,
    kind: input.kindOf(id) ?? 'unknown',
    jobFlows: on.find((u) => u.job === input.job.id)?.flows ?? 0,
    jobShare: on.find((u) => u.job === input.job.id)?.share ?? null,
    utilization: f.utilization,
    transmitWait: f.transmitWait,
    knownSeconds: Math.min(f.knownSeconds, Math.max(0, (input.window.toMs - input.window.fromMs) / 1000)),
    behindSeconds: f.behindSeconds,
    errors: { raised: e.errorsRaised, erroredSeconds: e.erroredSeconds },
    state: { flaps: e.flaps, downSeconds: e.downSeconds },
    users: on
      .filter((u) => u.job !== input.job.id)
      .map((u) => ({ job: u.job, share: u.share, flows: u.flows })),
  };
}

/**
 * Worst first: most time hurt, then most flaps and errors, then the most XmitWait, then the busiest; ties by id in
 * natural order. Wait comes before utilization because the hops after a bottleneck run as full as it does, but only
 * the bottleneck's sender queues: that is the direction the job is behind.
 */
function byImpact(a: ReportDirection, b: ReportDirection): number {
  return (
    impactSeconds(b) - impactSeconds(a) ||
    b.state.flaps + b.errors.raised - (a.state.flaps + a.errors.raised) ||
    (b.transmitWait.mean ?? -1) - (a.transmitWait.mean ?? -1) ||
    (b.utilization.p95 ?? -1) - (a.utilization.p95 ?? -1) ||
    naturalCompare(a.id, b.id)
  );
}

/** The instants to look at: where each causing direction's congestion began, it went down, or erred. */
function evidenceOf(
  directions: readonly ReportDirection[],
  figures: ReadonlyMap<string, DirectionFigures>,
  events: ReadonlyMap<string, DirectionEvents>,
  windowSeconds: number,
): JobReport['evidence'] {
  const out: JobReport['evidence'] = [];
  for (const d of directions) {
    if (out.length >= REPORT_MAX_ROWS || !isCause(d, windowSeconds)) break;
    const f = figures.get(d.id);
    const e = events.get(d.id);
    if (e?.firstDownMs != null) out.push({ time: iso(e.firstDownMs), direction: d.id, what: 'link down' });
    if (e?.firstErrorMs != null)
      out.push({ time: iso(e.firstErrorMs), direction: d.id, what: 'error counters over threshold' });
    if (f?.behindFromMs != null && d.behindSeconds > 0)
      out.push({
        time: iso(f.behindFromMs),
        direction: d.id,
        what: 'start of its longest congested stretch',
      });
    if (f?.worstMs != null && d.behindSeconds > 0 && f.worstMs !== f.behindFromMs)
      out.push({ time: iso(f.worstMs), direction: d.id, what: 'its worst sample' });
  }
  return out.slice(0, REPORT_MAX_ROWS);
}

/** Collection gaps on the ports of the job's directions (or of the whole collection) in the window, oldest first. */
function gapsOf(
  ids: ReadonlySet<string>,
  events: readonly FabricEvent[],
  fromMs: number,
  toMs: number,
): Pick<JobReport['unknowns'], 'gaps' | 'gapsTotal'> {
  const ports = new Set<string>(['fabric']);
  for (const id of ids) for (const port of id.split('->')) ports.add(port);
  const gaps = events.filter(
    (e) =>
      (e.kind === 'collection-gap' || e.kind === 'collection') &&
      e.timeMs >= fromMs &&
      e.timeMs <= toMs &&
      ports.has(e.subject),
  );
  return {
    gaps: gaps
      .slice(0, REPORT_MAX_ROWS)
      .map((e) => ({ time: iso(e.timeMs), subject: e.subject, what: e.detail })),
    gapsTotal: gaps.length,
  };
}
