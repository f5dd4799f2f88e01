import { describe, expect, it } from 'vitest';
import { threeTier } from './testTopologies.ts';
import { buildTierGroups, summarizeTiers } from './tierSummary.ts';

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
