// bench: measures the checkout it runs in
// `npm run bench -- jobs-affected`: GET /jobs?alarm=ID ("jobs affected") at fat-tree-27648 with 27 running 1,024-host
// jobs (53,248 estimated routes) and a congestion alarm on 64 ISL directions of one job's routes. Each request is a
// new list (another `limit`), so the listing's cache does not answer it. With `--baseline REV` the same requests run
// on REV's code: there, every request read every flow.

import { loadavg } from 'node:os';
import { benchReporter, median } from '@fabscope/test-support';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import type { AlarmMember } from '../src/events/alarms.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import type { Job, JobSource } from '../src/jobs/job.ts';
import { buildTestApp } from '../test/helper.ts';

const SCENARIO = 'fat-tree-27648';
const JOB_HOSTS = 1024;
const MEMBERS = 64;
const REQUESTS = 9;

const fabric = buildScenario(SCENARIO);
const tables = fatTreeRouting(fabric);
const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
const jobs: Job[] = Array.from({ length: Math.floor(hosts.length / JOB_HOSTS) }, (_, i) => ({
  id: String(1000 + i),
  name: `job${i}`,
  user: null,
  state: 'RUNNING',
  nodes: hosts.slice(i * JOB_HOSTS, (i + 1) * JOB_HOSTS),
  startTime: new Date(Date.now() - 600_000).toISOString(),
}));
const source: JobSource = { kind: 'file', list: async () => ({ jobs, skipped: [] }) };
const app = await buildTestApp({ fabric, tables, jobs: source, events: new MemoryEventLog() });
const alarms = app.alarms;
if (!alarms) throw new Error('the app keeps no alarms');

// The alarm: ISL directions one job's routes cross (from its flows, as /links/flows lists them).
const flows = (await app.inject('/api/v1/links?job=1003&kind=isl&limit=1000')).json() as {
  links: { id: string }[];
};
const members: AlarmMember[] = flows.links.slice(0, MEMBERS).map(({ id }) => ({
  id,
  kind: 'isl',
  category: 'congestion',
  level: 2,
  value: 1.4,
  unknownSinceMs: null,
}));
alarms.update(Date.now(), members);
const alarm = alarms.list(false)[0];
if (!alarm) throw new Error('alarm not raised');

const ask = async (limit: number) => {
  const t = performance.now();
  const res = await app.inject(`/api/v1/jobs?alarm=${encodeURIComponent(alarm.id)}&limit=${limit}`);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
  return { ms: performance.now() - t, body: res.json() as { total: number } };
};
const first = await ask(100);
const again: number[] = [];
for (let i = 0; i < REQUESTS; i++) again.push((await ask(101 + i)).ms);
console.log(
  `${SCENARIO} jobs-affected: ${jobs.length} running jobs of ${JOB_HOSTS} hosts, an alarm of ${alarm.members.length} ISL directions: ${first.body.total} jobs affected`,
);
const bench = benchReporter(`${SCENARIO} jobs-affected `);
bench.report('first request, wall', first.ms, 'ms', undefined, 0);
bench.report('next requests (median), wall', median(again), 'ms', undefined, 1);
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await app.close();
process.exit(0);
