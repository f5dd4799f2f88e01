import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { defaultSampleIntervalMs } from '../src/config.ts';
import type { Job } from '../src/jobs/job.ts';
import type { JobFlow } from '../src/jobs/job-flows.ts';
import { jobFabricReport } from '../src/jobs/report/job-fabric-report.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { gather } from '../src/routes/jobs/report/report-inputs.ts';
import type { TimeQueries } from '../src/store/time-queries.ts';

// The job report benches' fabric and jobs (job-report.bench.ts from the embedded store, the CLI's
// job-report-prometheus.bench.ts through a real Prometheus): the same job on the same busy fabric, from either store.

export const SCENARIO = 'fat-tree-27648';
export const JOB_HOSTS = 1024;
export const HOUR_MS = 3_600_000;

const fabric = buildScenario(SCENARIO);
const index = new LinkIndex(fabric);
const tables = fatTreeRouting(fabric);
const routed = { fabric, tables, linkIndex: index };
const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);

/** Random numbers from a fixed seed: both benches' histories are the same every run. */
export function seeded(seed = 11): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/**
 * The fabric, and every host in 1,024-host jobs that all ran the hour from `startMs`; the report is of the fourth
 * (`target`), on a fabric busy with the other 26.
 */
export function jobReportSetup(startMs: number) {
  const jobOf = (i: number): Job => ({
    id: String(1000 + i),
    name: `job${i}`,
    user: null,
    state: 'COMPLETED',
    nodes: hosts.slice(i * JOB_HOSTS, (i + 1) * JOB_HOSTS),
    startTime: new Date(startMs).toISOString(),
    endTime: new Date(startMs + HOUR_MS).toISOString(),
  });
  const jobs = Array.from({ length: Math.floor(hosts.length / JOB_HOSTS) }, (_, i) => jobOf(i));
  const target = jobs[3] as Job;
  const window = { fromMs: startMs, toMs: startMs + HOUR_MS, asked: false };
  /** The report's work from `queries`, timed: wall and this process' CPU. */
  const timedReport = async (queries: TimeQueries) => {
    const app = {
      fabric: routed,
      // Finished jobs: nothing runs now; every job's routes are estimated from its hosts on the tables.
      jobs: { flowsNow: async (): Promise<JobFlow[]> => [] },
      timeTravel: { require: () => queries },
      events: null,
      adaptiveRouting: { get: async () => ({ available: false, reason: 'static routing (the bench)' }) },
    } as unknown as Parameters<typeof gather>[0];
    const cpu = process.cpuUsage();
    const t = performance.now();
    const report = jobFabricReport(await gather(app, target, jobs, window));
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, report };
  };
  return {
    fabric,
    index,
    routed,
    intervalMs: defaultSampleIntervalMs(fabric),
    jobs,
    target,
    window,
    timedReport,
  };
}
