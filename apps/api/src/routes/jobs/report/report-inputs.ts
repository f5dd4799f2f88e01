import type { JobReport } from '@fabscope/contracts';
import type { FastifyInstance } from 'fastify';
import { byName } from '../../../jobs/emulator-source.ts';
import type { Job } from '../../../jobs/job.ts';
import { estimatedFlows, type JobFlow, knownHosts, railsOf } from '../../../jobs/job-flows.ts';
import { patternPairs } from '../../../jobs/job-pattern.ts';
import { directionHistory } from '../../../jobs/report/direction-history.ts';
import type { ReportInput } from '../../../jobs/report/job-fabric-report.ts';
import { reportThresholds } from '../../../jobs/report/thresholds.ts';
import type { FabricEvent } from '../../../lib/fabric-event.ts';
import { parseTime, TimeParamError } from '../../../lib/time-params.ts';

/** The longest window a report covers: its history is read at a coarser step, not without bound. */
export const MAX_REPORT_WINDOW_MS = 31 * 86_400_000;
/** Most history points read for one report (directions × steps): the step grows to stay within it. */
export const MAX_REPORT_POINTS = 1_000_000;

type App = Pick<FastifyInstance, 'jobs' | 'fabric' | 'timeTravel' | 'events' | 'adaptiveRouting'>;

/** The window asked (`from`/`to`), else the job's run; 400 when it cannot be one. */
export function reportWindow(
  job: Job,
  query: { from?: string | undefined; to?: string | undefined },
  nowMs: number,
): ReportWindow {
  const asked = query.from !== undefined || query.to !== undefined;
  let fromMs = query.from !== undefined ? parseTime('from', query.from, nowMs) : timeOf(job.startTime);
  const toMs = query.to !== undefined ? parseTime('to', query.to, nowMs) : (timeOf(job.endTime) ?? nowMs);
  if (fromMs === null)
    throw new TimeParamError(`job "${job.id}" has no start time (state ${job.state}): give from`);
  if (!(toMs > fromMs)) throw new TimeParamError(`to (${iso(toMs)}) is not after from (${iso(fromMs)})`);
  const days = MAX_REPORT_WINDOW_MS / 86_400_000;
  if (toMs - fromMs <= MAX_REPORT_WINDOW_MS) return { fromMs, toMs, asked };
  if (query.from !== undefined)
    throw new TimeParamError(`the window is longer than ${days} days: give a shorter from/to`);
  // A job running for longer than a report covers: its last days, said, rather than no report at all.
  fromMs = toMs - MAX_REPORT_WINDOW_MS;
  return {
    fromMs,
    toMs,
    asked,
    note: `the job ran longer than ${days} days: only its last ${days} are reported`,
  };
}

/** The window a report covers, and what was cut from the job's run, if anything. */
export interface ReportWindow {
  fromMs: number;
  toMs: number;
  asked: boolean;
  note?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const timeOf = (text: string | null | undefined) => (text ? Date.parse(text) : null);

/** Whether a job ran at some time in [fromMs, toMs], as far as its times say (unknown times: assumed so). */
function overlaps(job: Job, fromMs: number, toMs: number): boolean {
  const start = timeOf(job.startTime);
  const end = timeOf(job.endTime);
  return (start === null || start <= toMs) && (end === null || end >= fromMs);
}

/** Everything the pure report needs, read from the jobs, the routes, the store's history and the event log. */
export async function gather(
  app: App,
  job: Job,
  others: readonly Job[],
  window: ReportWindow,
): Promise<ReportInput> {
  const { fabric, linkIndex } = app.fabric;
  const live = await app.jobs.flowsNow();
  const runningNow = live.some((f) => f.job === job.id);
  const measuredOwn = live.filter((f) => f.job === job.id && !f.estimated);
  const measured = measuredOwn.length > 0;
  const declared = patternPairs(job, knownHosts(fabric, job));
  const own: JobFlow[] = measured ? measuredOwn : estimatedFlows(app.fabric, job);
  const inWindow = new Map(others.map((j) => [j.id, j]));
  const othersFlows = live.filter((f) => {
    if (f.job === job.id) return false;
    const other = f.job === null ? undefined : inWindow.get(f.job);
    return other === undefined || overlaps(other, window.fromMs, window.toMs);
  });
  const seen = new Set(othersFlows.map((f) => f.job));
  for (const other of others) {
    if (other.id === job.id || seen.has(other.id) || other.nodes.length === 0) continue;
    if (!overlaps(other, window.fromMs, window.toMs) || other.startTime === null) continue;
    othersFlows.push(...estimatedFlows(app.fabric, other));
  }
  const ids = [...new Set(own.flatMap((f) => f.path))];
  const queries = app.timeTravel.require();
  const span = window.toMs - window.fromMs;
  const stepMs = Math.max(
    queries.resolutionMs,
    Math.ceil((span * Math.max(1, ids.length)) / MAX_REPORT_POINTS),
  );
  const range = { fromMs: window.fromMs, toMs: window.toMs, stepMs };
  const [history, derived] = await Promise.all([
    directionHistory(queries, ids, range),
    queries.events?.(window.fromMs, window.toMs) ?? [],
  ]);
  // A link down or an error threshold raised before the window still holds at its start.
  const logged = app.events?.list(window.fromMs - 86_400_000, window.toMs) ?? [];
  const events: FabricEvent[] = [...logged, ...derived].sort((a, b) => a.timeMs - b.timeMs);
  const notOnFabric = job.nodes.filter((n) => railsOf(fabric, n).length === 0).sort(byName);
  const adaptiveRouting = await adaptiveRoutingNow(app);
  return {
    job,
    hostsNotOnFabric: notOnFabric,
    hostsOnFabric: job.nodes.length - notOnFabric.length,
    window: { fromMs: window.fromMs, toMs: window.toMs, asked: window.asked, stepMs },
    pattern: measured
      ? {
          kind: 'measured',
          name: 'measured flows',
          pairs: own.length,
          statement: "the emulator's flows of the job, as they run now",
        }
      : declared.pattern,
    adaptiveRouting,
    routesSource: measured ? 'measured' : app.fabric.tablesOrigin ? 'subnet-manager' : 'computed',
    own,
    others: othersFlows,
    history,
    events,
    kindOf: (id) => linkIndex.channelById.get(id)?.fixed.kind,
    linkOf: (id) => linkIndex.channelById.get(id)?.fixed.linkId,
    thresholds: reportThresholds(linkIndex.categoryConfig),
    notes: [
      ...(window.note ? [window.note] : []),
      ...notesOf(measured, runningNow, adaptiveRouting.state === 'on'),
    ],
  };
}

/** Adaptive routing as the fabric manager says it now; a manager that fails to answer is said, not fatal. */
async function adaptiveRoutingNow(app: App): Promise<JobReport['routes']['adaptiveRouting']> {
  try {
    const ar = await app.adaptiveRouting.get();
    if (!ar.available) return { state: 'unavailable', detail: ar.reason };
    return {
      state: ar.enabled ? 'on' : 'off',
      detail: `${ar.source}${ar.lostRouteOnly ? ', around failed links only' : ''}`,
    };
  } catch (error) {
    return { state: 'unknown', detail: (error as Error).message };
  }
}

function notesOf(measured: boolean, runningNow: boolean, adaptive: boolean): string[] {
  const notes: string[] = [];
  if (!measured && adaptive)
    notes.push(
      "adaptive routing is on: traffic may have left these routes (the tables') where they were congested",
    );
  if (!measured)
    notes.push("other jobs' traffic is estimated from their hosts and the time they ran, not measured");
  if (measured && runningNow)
    notes.push("other jobs' shares are those of their flows now, not over the whole window");
  return notes;
}
