import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JobReport } from '@fabscope/contracts';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { type Fabric, FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type CounterWriter, type DirectionLoad, startCounterWriter } from './lab-counter-writer.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

const run = promisify(execFile);

/** Hosts per leaf: node01–08 on leaf01, node09–16 on leaf02; leaf ports 9 and 10 go up to spine01 and spine02. */
const PER_LEAF = 8;
const host = (i: number) => `node${String(i).padStart(2, '0')}`;

/** Two leaves, two spines, 4x SDR: at SDR's XmitWait tick (4 ns) the 32-bit counter holds the test's waits. */
function labFabric(): Fabric {
  const b = new FabricBuilder('job-lab', 'infiniband');
  const sdr = { widthSpeed: '4xSDR' } as const;
  for (const [i, name] of ['leaf01', 'leaf02', 'spine01', 'spine02'].entries())
    b.addNode({ name, type: 'switch', guid: generatedGuid(1, i), portCount: 12, tier: i < 2 ? 1 : 2 });
  for (let h = 1; h <= 2 * PER_LEAF; h++) {
    b.addNode({ name: host(h), type: 'host', guid: generatedGuid(0, h), portCount: 1 });
    b.connect(host(h), 1, h <= PER_LEAF ? 'leaf01' : 'leaf02', ((h - 1) % PER_LEAF) + 1, 8, 'host', sdr);
  }
  for (const [l, leaf] of ['leaf01', 'leaf02'].entries())
    for (const [s, spine] of ['spine01', 'spine02'].entries())
      b.connect(leaf, 9 + s, spine, l + 1, 8, 'isl', sdr);
  return b.build();
}

interface RouteAnswer {
  links: string[];
  slid?: number;
  dlid?: number;
  tables?: { source: string };
}

/** The jobs of the five cases, chosen on OpenSM's routes (leaf tables route by destination LID). */
interface Plan {
  culprit: { id: string; pairs: [string, string][] };
  victim: { id: string; pairs: [string, string][] };
  collision: [{ id: string; pairs: [string, string][] }, { id: string; pairs: [string, string][] }];
  erring: { id: string; pairs: [string, string][] };
  clean: { id: string; pairs: [string, string][] };
  finished: { id: string; pairs: [string, string][] };
}

/** The spine a route crosses (its second direction `leaf/p->spine/q`), or why it has none. */
const spineOf = (r: RouteAnswer) => /->(spine\d+)\//.exec(r.links[1] ?? '')?.[1] ?? 'none';

/**
 * An incast node01–03 → node09 and a victim node04 → a leaf02 host leaf01 sends up the same spine; two single
 * pairs from leaf02 hosts to leaf01 hosts leaf02 sends up one spine (a collision); an erring pair within leaf02; a
 * clean pair up leaf01's other spine; a finished victim. `spine(from, to)`: the spine OpenSM routes it through.
 */
function planJobs(spine: (from: string, to: string) => string): Plan {
  const hot = spine('node04', 'node09');
  const leaf02 = [10, 11, 12, 13, 14, 15, 16].map(host);
  const sameUp = leaf02.filter((d) => spine('node04', d) === hot);
  const otherUp = leaf02.filter((d) => spine('node04', d) !== hot);
  const leaf01 = ['node05', 'node06', 'node07'];
  const down = (d: string) => spine('node09', d);
  const pairUp = leaf01
    .flatMap((a, i) => leaf01.slice(i + 1).map((b): [string, string] => [a, b]))
    .find(([a, b]) => down(a) === down(b));
  if (sameUp.length < 2 || otherUp.length < 1 || !pairUp)
    throw new Error(`OpenSM's minhop routes leave no plan: ${sameUp} via ${hot}, ${otherUp} not`);
  const leftover = leaf01.find((h) => !pairUp.includes(h)) as string;
  const [v, f] = sameUp as [string, string];
  const c = otherUp[0] as string;
  const [s1, s2, e1, e2] = leaf02.filter((h) => ![v, f, c].includes(h));
  return {
    culprit: { id: '3001', pairs: ['node01', 'node02', 'node03'].map((h) => [h, 'node09']) },
    victim: { id: '3002', pairs: [['node04', v]] },
    collision: [
      { id: '3003', pairs: [[s1 as string, pairUp[0]]] },
      { id: '3004', pairs: [[s2 as string, pairUp[1]]] },
    ],
    erring: { id: '3005', pairs: [[e1 as string, e2 as string]] },
    clean: { id: '3006', pairs: [['node08', c]] },
    finished: { id: '3007', pairs: [[leftover, f]] },
  };
}

/** Congested: at its data rate, its sender waiting a fifth of the time (the congestion warning is a tenth). */
const HOT = { utilization: 0.99, waitFraction: 0.2 };
/** Busy, never congested: well under 95 % even when a sample falls between two of the writer's steps. */
const BUSY = { utilization: 0.4 };

/** Counters per direction: every job route busy, the incast's and the collision's shared ISLs hot, errors on one. */
function loadsOf(plan: Plan, routeOf: (pair: [string, string]) => RouteAnswer): Map<string, DirectionLoad> {
  const loads = new Map<string, DirectionLoad>();
  const jobs = [plan.culprit, plan.victim, ...plan.collision, plan.erring, plan.clean, plan.finished];
  for (const job of jobs)
    for (const pair of job.pairs) for (const id of routeOf(pair).links) loads.set(id, BUSY);
  const incast = routeOf(plan.culprit.pairs[0] as [string, string]).links;
  // The spine's way down to node09's leaf and node09's own link: where an incast of three waits.
  for (const id of incast.slice(2)) loads.set(id, HOT);
  const [a, b] = plan.collision.map((j) => routeOf(j.pairs[0] as [string, string]).links);
  for (const id of a ?? []) if (b?.includes(id) && /->spine|spine\d+\/\d+->/.test(id)) loads.set(id, HOT);
  const erring = routeOf(plan.erring.pairs[0] as [string, string]).links;
  loads.set(erring.at(-1) as string, { utilization: 0.3, symbolErrorsPerSecond: 400 });
  return loads;
}

describe('a job’s fabric report on the ibsim + OpenSM lab', () => {
  let lab: Lab;
  let serve: ServeOnLab;
  let writer: CounterWriter | undefined;
  let plan: Plan;
  const routes = new Map<string, RouteAnswer>();
  const routeOf = ([from, to]: [string, string]) => routes.get(`${from}>${to}`) as RouteAnswer;
  let finishedWindow: { start: string; end: string };
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${serve.url}/api/v1${path}`);
    return { status: res.status, body: await res.json() };
  };
  const report = async (id: string): Promise<JobReport> => {
    const answer = await get(`/jobs/${id}/report`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as JobReport;
  };

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(labFabric()),
      routing: 'minhop',
      sockName: `joblab-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    const jobsPath = join(lab.dir, 'jobs.json');
    writeFileSync(jobsPath, '{"jobs": []}');
    serve = await startServeOnLab(
      lab,
      {
        FABSCOPE_JOBS: `file:${jobsPath}`,
        FABSCOPE_LFTS: lab.lftsDumpPath,
        FABSCOPE_SAMPLE_INTERVAL_MS: '500',
      },
      40_000,
    );
    await learnRoutes();
    const startMs = Date.now();
    finishedWindow = {
      start: new Date(startMs + 1000).toISOString(),
      end: new Date(startMs + 7000).toISOString(),
    };
    writeFileSync(jobsPath, JSON.stringify({ jobs: jobsOf(plan, new Date(startMs).toISOString()) }));
    writer = startCounterWriter(lab, loadsOf(plan, routeOf), await capacities());
    await eventually(async () => expect((await get('/jobs')).body.jobs).toHaveLength(7), 15_000);
  }, 70_000);
  afterAll(async () => {
    await writer?.stop();
    await serve?.stop();
    await lab?.stop();
  });

  /** OpenSM's routes as the server reads them from its LFT dump: probes to plan on, then every planned pair's. */
  async function learnRoutes() {
    await eventually(async () => {
      const first = await get('/route?from=node01&to=node09');
      expect(first.body.tables?.source).toBe('sm');
    }, 30_000);
    const fetchRoute = async ([from, to]: [string, string]) =>
      routes.set(`${from}>${to}`, (await get(`/route?from=${from}&to=${to}`)).body);
    const probes: [string, string][] = [];
    for (let d = 9; d <= 16; d++) probes.push(['node04', host(d)]);
    for (let d = 5; d <= 7; d++) probes.push(['node09', host(d)]);
    for (const pair of probes) await fetchRoute(pair);
    plan = planJobs((from, to) => spineOf(routeOf([from, to])));
    const jobs = [plan.culprit, plan.victim, ...plan.collision, plan.erring, plan.clean, plan.finished];
    for (const job of jobs) for (const pair of job.pairs) await fetchRoute(pair);
  }

  /** Each direction's data rate as the server reads it (PortInfo's width × speed). */
  async function capacities(): Promise<Map<string, number>> {
    const links = (await get('/links?limit=1000')).body.links as {
      id: string;
      capacityBytesPerSecond: number;
    }[];
    return new Map(links.map((l) => [l.id, l.capacityBytesPerSecond]));
  }

  function jobsOf(p: Plan, start: string) {
    const running = [p.culprit, p.victim, ...p.collision, p.erring, p.clean].map((j) => ({
      id: j.id,
      nodes: [...new Set(j.pairs.flat())],
      state: 'RUNNING',
      startTime: start,
      pattern: 'pairs',
      pairs: j.pairs,
    }));
    const f = p.finished;
    return [
      ...running,
      {
        id: f.id,
        nodes: f.pairs[0],
        state: 'COMPLETED',
        startTime: finishedWindow.start,
        endTime: finishedWindow.end,
        pattern: 'pairs',
        pairs: f.pairs,
      },
    ];
  }

  it('(a) a victim behind an incast: the culprit job and the shared direction first', async () => {
    const r = await eventually(async () => {
      const v = await report(plan.victim.id);
      expect(v.verdict.cause).toBe('congestion');
      expect(v.culprits[0]?.job).toBe(plan.culprit.id);
      return v;
    }, 20_000);
    const shared = routeOf(plan.victim.pairs[0] as [string, string]).links;
    const incast = routeOf(plan.culprit.pairs[0] as [string, string]).links;
    expect(r.routes.source).toBe('subnet-manager');
    expect(r.pattern).toMatchObject({ kind: 'declared', name: 'pairs', pairs: 1 });
    const worst = r.directions[0];
    expect(incast).toContain(worst?.id);
    expect(shared).toContain(worst?.id);
    expect(r.culprits[0]?.direction).toBe(worst?.id);
    // Three of the incast's routes against the victim's one (and the finished job's, while it ran).
    expect(r.culprits[0]?.share).toBeGreaterThanOrEqual(0.6);
    // The 20 % of wait written is seen; under a loaded machine the writer's lag halved it once.
    expect(worst?.transmitWait.max).toBeGreaterThan(0.05);
    expect(r.verdict.text).toContain(`job ${plan.culprit.id}'s traffic carried`);
    expect(r.evidence.some((e) => e.direction === worst?.id)).toBe(true);
    // The incast's own report: the victim is named among the jobs it slowed.
    const c = await report(plan.culprit.id);
    expect(c.victims.map((v) => v.job)).toContain(plan.victim.id);
  }, 30_000);

  it('(b) a routing collision under OpenSM’s static routes: both jobs named, routes as ibtracert traces', async () => {
    const [one, two] = plan.collision;
    const r = await eventually(async () => {
      const x = await report(one.id);
      expect(x.culprits[0]?.job).toBe(two.id);
      return x;
    }, 20_000);
    const theirs = routeOf(two.pairs[0] as [string, string]).links;
    const where = r.culprits[0]?.direction as string;
    expect(where).toMatch(/spine/);
    expect(theirs).toContain(where);
    expect(r.victims.map((v) => v.job)).toContain(two.id);
    expect(r.directions.find((d) => d.id === where)?.users).toEqual([{ job: two.id, share: 0.5, flows: 1 }]);
    // The route listed is the one the switches' tables hold: ibtracert walks them hop by hop.
    const listed = r.routes.listed[0];
    const asked = routeOf(one.pairs[0] as [string, string]);
    expect(listed?.path).toEqual(asked.links);
    expect(listed?.path).toEqual(await ibtracert(asked.slid as number, asked.dlid as number));
    const other = routeOf(two.pairs[0] as [string, string]);
    expect(await ibtracert(other.slid as number, other.dlid as number)).toContain(where);
  }, 30_000);

  it('(c) a link erring under one job: that direction first, with its errors', async () => {
    const erring = routeOf(plan.erring.pairs[0] as [string, string]).links.at(-1) as string;
    const r = await eventually(async () => {
      const x = await report(plan.erring.id);
      expect(x.verdict.cause).toBe('errors');
      return x;
    }, 20_000);
    expect(r.directions[0]?.id).toBe(erring);
    expect(r.directions[0]?.errors.raised).toBeGreaterThanOrEqual(1);
    expect(r.verdict.text).toContain(erring.replace('->', ' → '));
    expect(r.evidence).toContainEqual(
      expect.objectContaining({ direction: erring, what: 'error counters over threshold' }),
    );
    expect(r.culprits).toEqual([]);
  }, 30_000);

  it('(d) a clean job on a busy fabric: no fabric cause found', async () => {
    // Asked once its ISLs have carried their load for a while: at its first sample nothing had moved yet.
    const r = await eventually(async () => {
      const x = await report(plan.clean.id);
      const isl = x.directions.find((d) => d.kind === 'isl');
      expect(isl?.utilization.mean).toBeGreaterThan(0.25);
      return x;
    }, 20_000);
    expect(r.verdict.cause).toBe('none');
    expect(r.verdict.text).toMatch(/^no fabric cause found for job 3006: none of its 4 link directions/);
    expect(r.culprits).toEqual([]);
    expect(r.victims).toEqual([]);
    // Busy, never congested: every direction of its route carried 40 % of its rate.
    for (const d of r.directions) {
      expect(d.utilization.max, d.id).toBeLessThan(0.95);
      expect(d.behindSeconds, d.id).toBe(0);
    }
  }, 30_000);

  it('(e) a finished job from the jobs file: its run read back from the history', async () => {
    const r = await eventually(async () => {
      expect(Date.now()).toBeGreaterThan(Date.parse(finishedWindow.end) + 1000);
      return report(plan.finished.id);
    }, 20_000);
    expect(r.job).toMatchObject({ state: 'COMPLETED', endTime: finishedWindow.end, hostsOnFabric: 2 });
    expect(r.window).toMatchObject({ from: finishedWindow.start, to: finishedWindow.end, asked: false });
    expect(r.verdict.cause).toBe('congestion');
    expect(r.culprits[0]?.job).toBe(plan.culprit.id);
    expect(r.directions[0]?.knownSeconds).toBeGreaterThanOrEqual(4);
  }, 30_000);

  /** The route the switches' LFTs give from `slid` to `dlid`, as link directions, by infiniband-diags' ibtracert. */
  async function ibtracert(slid: number, dlid: number): Promise<string[]> {
    const { stdout } = await run('ibtracert', [String(slid), String(dlid)], {
      env: { ...process.env, ...lab.env },
      cwd: lab.cwd,
    });
    const ids: string[] = [];
    let at = /^From \S+ \{0x[0-9a-f]+\} portnum (\d+) lid \S+ "(.*)"/im.exec(stdout)?.[2];
    for (const step of stdout.matchAll(/^\[(\d+)\] -> \S+ port \{0x[0-9a-f]+\}\[(\d+)\] lid \S+ "(.*)"/gim)) {
      ids.push(`${at}/${step[1]}->${step[3]}/${step[2]}`);
      at = step[3];
    }
    return ids;
  }
});
