import { type Fabric, type ForwardingTables, fatTreeRouting, twoTierFatTree } from '@fabscope/topology';
import fc from 'fast-check';
import type { Job } from '../../src/jobs/job.ts';
import { type JobFlow, staticPaths } from '../../src/jobs/job-flows.ts';
import { columnsOfSeries } from '../../src/jobs/report/direction-history.ts';
import type { ReportInput } from '../../src/jobs/report/job-fabric-report.ts';
import { reportThresholds } from '../../src/jobs/report/thresholds.ts';
import type { FabricEvent } from '../../src/lib/fabric-event.ts';
import type { LinkSeries } from '../../src/store/time-queries.ts';

// Generated episodes of a small fat tree under static routing: a victim job, the job that truly slowed it (or the
// fault, or nothing), bystanders elsewhere, and the store's history of the victim's directions as it would read.

export const fabric: Fabric = twoTierFatTree({
  name: 'report-tree',
  radix: 8,
  edgeCount: 6,
  coreCount: 3,
  hostsPerEdge: 4,
});
export const tables: ForwardingTables = fatTreeRouting(fabric);
export const HOSTS = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
const START_MS = Date.UTC(2026, 10, 29, 8, 0, 0);
const STEP_MS = 1000;

export type EpisodeKind = 'incast' | 'permutation' | 'collision' | 'errors' | 'flap' | 'clean';

export interface Episode {
  kind: EpisodeKind;
  input: ReportInput;
  /** The job and direction the report must put first; null for a fault or a clean job. */
  culprit: { job: string; direction: string } | null;
  /** The faulty direction (errors, flap). */
  faulty: string | null;
}

const linkOfDirection = new Map<string, string>();
for (const l of fabric.links) {
  const a = `${l.a.node}/${l.a.port}`;
  const b = `${l.b.node}/${l.b.port}`;
  const id = `${a}--${b}`;
  linkOfDirection.set(`${a}->${b}`, id);
  linkOfDirection.set(`${b}->${a}`, id);
}

const routes = (pairs: [string, string][]) => staticPaths(fabric, tables, pairs);

const flowsOf = (job: string, pairs: [string, string][], rate: number | null): JobFlow[] =>
  routes(pairs).map((r) => ({ ...r, job, bytesPerSecond: rate, estimated: rate === null }));

const allPairs = (hosts: readonly string[]): [string, string][] =>
  hosts.flatMap((a) => hosts.filter((b) => b !== a).map((b) => [a, b] as [string, string]));

/** One step's point: congested at `hot`, else busy but under every congestion threshold. */
function series(
  ids: readonly string[],
  steps: number,
  hotOf: (id: string, i: number) => boolean,
  rnd: () => number,
): LinkSeries[] {
  return ids.map((id) => ({
    id,
    points: Array.from({ length: steps }, (_, i) => {
      const hot = hotOf(id, i);
      const utilization = hot ? 0.96 + 0.04 * rnd() : 0.85 * rnd();
      const wait = hot ? 0.1 + 0.5 * rnd() : 0.05 * rnd();
      // Some calm samples were never collected: unknown, never 0.
      const unknown = !hot && rnd() < 0.05;
      return {
        timeMs: START_MS + i * STEP_MS,
        utilization: unknown ? null : utilization,
        bytesPerSecond: unknown ? null : utilization * 12.5e9,
        transmitWaitFraction: unknown ? null : wait,
      };
    }),
  }));
}

/** A seeded generator of numbers in [0, 1) from fast-check's integer, so an episode replays from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function job(id: string, nodes: readonly string[]): Job {
  return {
    id,
    name: id,
    user: null,
    state: 'COMPLETED',
    nodes: [...nodes],
    startTime: new Date(START_MS).toISOString(),
    endTime: null,
  };
}

function shuffled<T>(items: readonly T[], rnd: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** An episode of `kind` from `seed`: deterministic, so fast-check can shrink and replay it. */
export function episode(kind: EpisodeKind, seed: number, steps: number): Episode {
  const rnd = random(seed);
  const hosts = shuffled(HOSTS, rnd);
  const victimHosts = hosts.slice(0, 2 + Math.floor(rnd() * 3));
  const rest = hosts.slice(victimHosts.length);
  const estimated = kind === 'collision';
  const victimFlows = flowsOf('victim', allPairs(victimHosts), estimated ? null : 1e9 + 3e9 * rnd());
  const victimIds = [...new Set(victimFlows.flatMap((f) => f.path))];
  const others: JobFlow[] = [];
  let culprit: Episode['culprit'] = null;
  let faulty: string | null = null;
  let hot = new Set<string>();
  const events: FabricEvent[] = [];
  if (kind === 'incast' || kind === 'permutation' || kind === 'collision') {
    const found = culpritCrossing(kind, victimIds, rest, rnd);
    if (found) {
      others.push(...flowsOf('culprit', found.pairs, estimated ? null : 8e9 + 4e9 * rnd()));
      culprit = { job: 'culprit', direction: found.direction };
      hot = new Set([found.direction]);
    }
  }
  // A bystander on other hosts, sometimes over the victim's calm directions too: sharing is not blame.
  const bystanders = shuffled(rest, rnd).slice(0, 3);
  // …but not over the congested one: there the culprit is the one other user, so "the true culprit" is defined.
  const bystanderRate = estimated ? null : 2e9 * rnd();
  others.push(
    ...flowsOf('bystander', allPairs(bystanders), bystanderRate).filter(
      (f) => culprit === null || !f.path.includes(culprit.direction),
    ),
  );
  const hotFrom = Math.floor(steps * 0.1 * rnd());
  const hotSteps = Math.max(1, Math.floor(steps * (0.2 + 0.7 * rnd())));
  const isHot = (id: string, i: number) => hot.has(id) && i >= hotFrom && i < hotFrom + hotSteps;
  if (kind === 'errors' || kind === 'flap') {
    faulty = victimIds[Math.floor(rnd() * victimIds.length)] as string;
    const at = START_MS + Math.floor(steps * 0.5 * rnd()) * STEP_MS;
    const link = linkOfDirection.get(faulty) as string;
    if (kind === 'errors') {
      events.push({
        timeMs: at,
        kind: 'threshold',
        subject: faulty,
        severity: 'error',
        detail: 'integrity 3.20 × threshold',
      });
    } else {
      events.push({ timeMs: at, kind: 'link-state', subject: link, detail: 'link down' });
      events.push({ timeMs: at + 5 * STEP_MS, kind: 'link-state', subject: link, detail: 'link up' });
    }
  }
  const window = { fromMs: START_MS, toMs: START_MS + steps * STEP_MS, stepMs: STEP_MS, asked: false };
  return {
    kind,
    culprit,
    faulty,
    input: {
      job: job('victim', victimHosts),
      hostsNotOnFabric: [],
      hostsOnFabric: victimHosts.length,
      window,
      pattern: { kind: 'measured', name: 'pairs', pairs: victimFlows.length, statement: 'generated' },
      routesSource: estimated ? 'computed' : 'measured',
      adaptiveRouting: { state: 'off', detail: 'static routing' },
      own: victimFlows,
      others,
      history: columnsOfSeries(series(victimIds, steps, isHot, rnd)),
      events,
      kindOf: () => 'isl',
      linkOf: (id) => linkOfDirection.get(id),
      thresholds: reportThresholds(),
    },
  };
}

/**
 * The culprit's pairs, on hosts the victim does not use, crossing one of the victim's directions: an incast onto one
 * host, a permutation of its hosts, or (collision) one pair sharing an ISL under static routing.
 */
function culpritCrossing(
  kind: EpisodeKind,
  victimIds: readonly string[],
  rest: readonly string[],
  rnd: () => number,
): { pairs: [string, string][]; direction: string } | null {
  const victim = new Set(victimIds);
  for (const [a, b] of shuffled(allPairs(rest), rnd)) {
    const path = routes([[a, b]])[0]?.path ?? [];
    const shared = path.filter((id) => victim.has(id));
    if (shared.length !== 1) continue;
    const direction = shared[0] as string;
    if (kind === 'collision') return { pairs: [[a, b]], direction };
    const senders = shuffled(
      rest.filter((h) => h !== a && h !== b),
      rnd,
    ).slice(0, 3);
    const pairs: [string, string][] =
      kind === 'incast'
        ? [[a, b], ...senders.map((s) => [s, b] as [string, string])]
        : [[a, b], [b, a], ...permutation(senders)];
    return { pairs, direction };
  }
  return null;
}

function permutation(hosts: readonly string[]): [string, string][] {
  return hosts.map((h, i) => [h, hosts[(i + 1) % hosts.length] as string]);
}

export const episodeArb = (kinds: readonly EpisodeKind[]) =>
  fc
    .record({
      kind: fc.constantFrom(...kinds),
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      steps: fc.integer({ min: 60, max: 600 }),
    })
    .map(({ kind, seed, steps }) => episode(kind, seed, steps));
