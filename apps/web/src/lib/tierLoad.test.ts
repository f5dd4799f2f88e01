import type { Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactSnapshot, LoadStats, TierSummary } from '../api/types.ts';
import { HEALTH_OK, summaryOf } from '../test/testFixtures.ts';
import { threeTier, twoTier } from '../test/testTopologies.ts';
import { MAX_DRAWN_LINKS } from './layout.ts';
import { buildTierGroups, summarizedTierGroups, type TierGroups, tierGroupsOf } from './tierGroups.ts';
import { HOT_UTILIZATION, summarizeSnapshot, summarizeTiers, tierSummaryOf } from './tierLoad.ts';

describe('tier and pod aggregates', () => {
  const topology = threeTier();
  const groups = buildTierGroups(topology);

  it('names one row per tier pair and direction, lowest tier first, up before down', () => {
    expect(groups.rows.map((r) => r.label)).toEqual([
      'hosts → edge',
      'edge → hosts',
      'edge → aggregation',
      'aggregation → edge',
      'aggregation → core',
      'core → aggregation',
    ]);
  });

  it('finds pods as edge and aggregation switches joined below the core', () => {
    expect(groups.pods).toEqual([
      { name: 'pod 1', switches: 4, hosts: 4 },
      { name: 'pod 2', switches: 4, hosts: 4 },
    ]);
  });

  it('aggregates per row and per pod, hottest pod first, unknown counted apart', () => {
    const n = topology.links.length * 2;
    const utilization: (number | null)[] = new Array(n).fill(0.1);
    const bytes: (number | null)[] = new Array(n).fill(1e9);
    // agg3 (pod 2) → core1 at 95 %; one host link of pod 1 unknown.
    const hot = topology.links.findIndex((l) => l.a.node === 'agg3' && l.b.node === 'core1');
    utilization[2 * hot] = 0.95;
    utilization[1] = null;
    bytes[1] = null;
    const summary = summarizeTiers(groups, utilization, bytes);
    const aggUp = summary.rows.find((r) => r.label === 'aggregation → core');
    expect(aggUp).toMatchObject({ directions: 8, known: 8, max: 0.95, hot: 1 });
    expect(aggUp?.mean).toBeCloseTo((7 * 0.1 + 0.95) / 8);
    const edgeToHosts = summary.rows.find((r) => r.label === 'edge → hosts');
    expect(edgeToHosts).toMatchObject({ directions: 8, known: 7, bytesPerSecond: 7e9 });
    expect(summary.pods.map((p) => p.name)).toEqual(['pod 2', 'pod 1']);
    expect(summary.pods[0]?.isl).toMatchObject({ max: 0.95, hot: 1, directions: 16 });
    expect(summary.pods[1]?.host).toMatchObject({ directions: 8, known: 7 });
  });
});

describe('tier aggregates: congestion and errors', () => {
  const topology = threeTier();
  const groups = buildTierGroups(topology);

  it('carries the largest wait and the directions with errors per row and pod; wait unknown stays null', () => {
    const n = topology.links.length * 2;
    const utilization: (number | null)[] = new Array(n).fill(0.1);
    const bytes: (number | null)[] = new Array(n).fill(1e9);
    const wait: (number | null)[] = new Array(n).fill(0);
    const up = topology.links.findIndex((l) => l.a.node === 'agg3' && l.b.node === 'core1');
    wait[2 * up] = 0.858;
    const summary = summarizeTiers(groups, utilization, bytes, wait, new Set([2 * up]));
    const aggUp = summary.rows.find((r) => r.label === 'aggregation → core');
    expect(aggUp).toMatchObject({ maxWait: 0.858, withErrors: 1 });
    expect(summary.rows.find((r) => r.label === 'hosts → edge')).toMatchObject({ maxWait: 0, withErrors: 0 });
    expect(summary.pods.find((p) => p.name === 'pod 2')?.isl).toMatchObject({
      maxWait: 0.858,
      withErrors: 1,
    });
    // Without wait figures (an older server): unknown, not 0.
    expect(summarizeTiers(groups, utilization, bytes).rows[0]?.maxWait).toBeNull();
    // No channel's error counters known (a store without them, a past instant): unknown, not 0.
    const blind = summarizeTiers(groups, utilization, bytes, wait, new Set(), false);
    for (const row of blind.rows) expect(row.withErrors).toBeNull();
    for (const pod of blind.pods) expect([pod.isl.withErrors, pod.host.withErrors]).toEqual([null, null]);
  });
});

/** The aggregates the plain way, one stats object per row and pod half: what summarizeTiers must equal. */
function summarizeSlowly(
  groups: TierGroups,
  utilization: ArrayLike<number | null>,
  bytes: ArrayLike<number | null>,
  wait: ArrayLike<number | null>,
  errorChannels: ReadonlySet<number>,
  errorsKnown: boolean,
): TierSummary {
  const empty = (): LoadStats => ({
    directions: 0,
    known: 0,
    mean: null,
    max: null,
    hot: 0,
    bytesPerSecond: null,
    maxWait: null,
    withErrors: 0,
  });
  const add = (s: LoadStats, c: number) => {
    const [u, b, w] = [utilization[c], bytes[c], wait[c]];
    s.directions++;
    if (errorChannels.has(c)) s.withErrors = (s.withErrors ?? 0) + 1;
    if (typeof w === 'number' && Number.isFinite(w)) s.maxWait = Math.max(s.maxWait ?? 0, w);
    if (typeof b === 'number' && Number.isFinite(b)) s.bytesPerSecond = (s.bytesPerSecond ?? 0) + b;
    if (typeof u !== 'number' || !Number.isFinite(u)) return;
    s.known++;
    s.mean = (s.mean ?? 0) + u;
    s.max = s.max === null ? u : Math.max(s.max, u);
    if (u >= HOT_UTILIZATION) s.hot++;
  };
  const done = (s: LoadStats): LoadStats => ({
    ...s,
    mean: s.mean !== null && s.known > 0 ? s.mean / s.known : s.mean,
    withErrors: errorsKnown ? s.withErrors : null,
  });
  const rows = groups.rows.map(empty);
  const pods = groups.pods.map((p) => ({ ...p, isl: empty(), host: empty() }));
  for (let c = 0; c < groups.channelRow.length; c++) {
    const row = rows[groups.channelRow[c] ?? -1];
    if (row) add(row, c);
    const pod = pods[groups.channelPod[c] ?? -1];
    if (pod) add(groups.channelIsl[c] ? pod.isl : pod.host, c);
  }
  const podStats = pods.map((p) => ({ ...p, isl: done(p.isl), host: done(p.host) }));
  podStats.sort((a, b) => (b.isl.max ?? -1) - (a.isl.max ?? -1) || naturalCompare(a.name, b.name));
  return { rows: groups.rows.map((info, i) => ({ ...info, ...done(rows[i] ?? empty()) })), pods: podStats };
}

describe('tier aggregates: one pass without objects', () => {
  const topology = threeTier();
  const groups = buildTierGroups(topology);
  const n = topology.links.length * 2;
  // Values as the stream brings them and worse: unknown (null, NaN), infinite, negative zero, past 1.
  const value = fc.oneof(
    fc.constant(null),
    fc.constant(Number.NaN),
    fc.constant(Number.POSITIVE_INFINITY),
    fc.constant(-0),
    fc.double({ min: 0, max: 1.2, noNaN: true }),
    fc.constantFrom(0.8, 0.7999, 1),
  );
  const column = fc.array(value, { minLength: n, maxLength: n });

  it('equals the per-object aggregates for any values, as arrays or Float64Arrays', () => {
    fc.assert(
      fc.property(
        column,
        column,
        fc.option(column, { nil: undefined }),
        fc.array(fc.integer({ min: -2, max: n + 2 }), { maxLength: 12 }),
        fc.boolean(),
        fc.boolean(),
        (u, b, w, errors, errorsKnown, typed) => {
          const slow = summarizeSlowly(groups, u, b, w ?? [], new Set(errors), errorsKnown);
          const values = (list: (number | null)[]) =>
            typed ? Float64Array.from(list, (x) => x ?? Number.NaN) : list;
          expect(summarizeTiers(groups, values(u), values(b), w && values(w), errors, errorsKnown)).toEqual(
            slow,
          );
        },
      ),
    );
  });
});

/** threeTier with `extra` more hosts on edge1: past MAX_DRAWN_LINKS, still three switch tiers. */
function bigThreeTier(extra: number): Topology {
  const small = threeTier();
  const nodes = [...small.nodes];
  const links = [...small.links];
  for (let h = 1; h <= extra; h++) {
    nodes.push({
      name: `extra${h}`,
      type: 'host',
      tier: 0,
      guid: `0x${(1000 + h).toString(16)}`,
      lid: 1000 + h,
    });
    links.push({
      id: `extra${h}/1--edge1/${100 + h}`,
      kind: 'host',
      a: { node: `extra${h}`, port: 1 },
      b: { node: 'edge1', port: 100 + h },
      rateGbps: 100,
    });
  }
  return { ...small, nodes, links };
}

describe('the tier summary a message carries', () => {
  it('is made for fabrics shown per tier only: too big to draw, and no two-tier heatmap', () => {
    const big = bigThreeTier(MAX_DRAWN_LINKS);
    const groups = summarizedTierGroups(big);
    expect(groups?.channelRow).toHaveLength(big.links.length * 2);
    // Once per topology: the tier view finds the same groups.
    expect(tierGroupsOf(big)).toBe(groups);
    expect(summarizedTierGroups(threeTier())).toBeNull();
    expect(summarizedTierGroups(twoTier(40, 20, 40))).toBeNull();
  });

  const topology = threeTier();
  const groups = buildTierGroups(topology);
  const n = topology.links.length * 2;
  const compact = (u: number): CompactSnapshot => ({
    time: 't',
    health: HEALTH_OK,
    summary: summaryOf(),
    utilization: new Float64Array(n).fill(u),
    bytesPerSecond: new Float64Array(n).fill(1e9),
    waitFraction: new Float64Array(n).fill(0),
    linkDown: [],
    errors: [[3, 1, null]],
    errorsUnknown: 0,
    top: [],
  });

  it('is read when it fits the groups drawn, made on the page otherwise', () => {
    const carried = summarizeSnapshot(groups, compact(0.5));
    const snapshot = { ...compact(0.2), tiers: carried };
    expect(tierSummaryOf(groups, snapshot)).toBe(carried);
    // Made for another fabric (another shape), or not carried (a past instant): made here.
    const other = { ...carried, pods: carried.pods.slice(1) };
    expect(tierSummaryOf(groups, { ...snapshot, tiers: other })).toEqual(
      summarizeSnapshot(groups, compact(0.2)),
    );
    const made = tierSummaryOf(groups, compact(0.2));
    expect(made.rows[0]?.mean).toBeCloseTo(0.2);
    expect(made.rows.reduce((sum, r) => sum + (r.withErrors ?? 0), 0)).toBe(1);
  });
});
