import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildScenario,
  channelOf,
  type Fabric,
  type ForwardingTables,
  fabricGraph,
  fatTreeForRadix,
  fatTreeRouting,
  lowestPortMinHopRouting,
  minHopRouting,
  NO_ROUTE,
  staticRouteLoad,
  staticRouteLoadSteps,
  summarizeStaticLoad,
  traceChannels,
  twoTierFatTree,
} from '../../src/index.ts';

/** The load the slow way: every host port to every other host port's LIDs, path by path. */
function bruteForce(fabric: Fabric, tables: ForwardingTables) {
  const g = fabricGraph(fabric);
  const paths = new Float64Array(fabric.links.length * 2);
  let routed = 0;
  let failed = 0;
  const hosts = fabric.nodes.filter((n) => n.type === 'host');
  const out: number[] = [];
  for (const src of hosts) {
    for (const dst of hosts) {
      if (src === dst) continue;
      out.length = 0;
      const reason = traceChannels(fabric, g, tables, src.index, dst.index, out);
      // traceChannels pushes the channel that ends a loop again: count each channel once per path.
      for (const c of new Set(out)) paths[c] = (paths[c] as number) + 1;
      if (reason === undefined) routed++;
      else failed++;
    }
  }
  return { paths, routed, failed };
}

describe('static route load (ibdiagnet -r)', () => {
  const cases: [string, Fabric, (f: Fabric) => ForwardingTables][] = [
    ['ar-demo, fattree', buildScenario('ar-demo'), fatTreeRouting],
    ['fat-tree-1152, fattree', buildScenario('fat-tree-1152'), fatTreeRouting],
    [
      'a three-tier radix-8 tree, minhop',
      fatTreeForRadix({ radix: 8, tiers: 3, name: 'ft3-8' }),
      minHopRouting,
    ],
    [
      'an oversubscribed tree, lowest-port min-hop',
      fatTreeForRadix({ radix: 12, tiers: 2, oversubscription: 2, name: 'ft2-12' }),
      lowestPortMinHopRouting,
    ],
  ];
  for (const [name, fabric, routing] of cases) {
    it(`counts what following every path counts: ${name}`, () => {
      const tables = routing(fabric);
      const load = staticRouteLoad(fabric, tables);
      const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
      if (hosts <= 200) {
        const expected = bruteForce(fabric, tables);
        expect(Array.from(load.paths)).toEqual(Array.from(expected.paths));
      }
      expect(load).toMatchObject({
        sources: hosts,
        destinations: hosts,
        routed: hosts * (hosts - 1),
        unrouted: 0,
        looping: 0,
      });
    });
  }

  it('on a full-bisection two-tier tree every up-port and every down-port carries the same', () => {
    const fabric = twoTierFatTree({ name: 't', radix: 8, edgeCount: 8, coreCount: 4, hostsPerEdge: 4 });
    const { groups, top } = summarizeStaticLoad(fabric, staticRouteLoad(fabric, fatTreeRouting(fabric)), 3);
    // 32 hosts: each host port carries the 31 paths to its host; each edge's 4 up-ports carry the
    // 4 × 28 paths leaving the edge, 28 each; each core port down to an edge carries 28 × 4 / 4.
    expect(groups).toEqual([
      {
        tier: 1,
        direction: 'host',
        ports: 32,
        min: 31,
        max: 31,
        mean: 31,
        meanUtilization: null,
        measuredPorts: 0,
      },
      {
        tier: 1,
        direction: 'up',
        ports: 32,
        min: 28,
        max: 28,
        mean: 28,
        meanUtilization: null,
        measuredPorts: 0,
      },
      {
        tier: 2,
        direction: 'down',
        ports: 32,
        min: 28,
        max: 28,
        mean: 28,
        meanUtilization: null,
        measuredPorts: 0,
      },
    ]);
    expect(top).toHaveLength(3);
    expect(top[0]).toMatchObject({ direction: 'host', paths: 31, tier: 1 });
  });

  it('says which paths a hole or a loop in the tables loses, and counts the channels up to there', () => {
    const fabric = buildScenario('ar-demo');
    const tables = fatTreeRouting(fabric);
    const g = fabricGraph(fabric);
    const hosts = fabric.nodes.filter((n) => n.type === 'host');
    const dst = hosts[hosts.length - 1] as (typeof hosts)[number];
    const edges = fabric.nodes.filter((n) => n.type === 'switch' && n.tier === 1);
    const cores = fabric.nodes.filter((n) => n.type === 'switch' && n.tier === 2);
    // A hole at every core for one destination, a loop (edge ↔ core) for another.
    const holed = { ...tables, bySwitch: tables.bySwitch.map((t) => (t ? Uint8Array.from(t) : t)) };
    for (const core of cores) (holed.bySwitch[core.index] as Uint8Array)[dst.lid] = NO_ROUTE;
    const looped = hosts[0] as (typeof hosts)[number];
    const edge = edges.find((e) =>
      e.ports.some((p) => p && fabric.links[p.link]?.id.includes(`${looped.name}/`)),
    );
    for (const core of cores) {
      const lft = holed.bySwitch[core.index] as Uint8Array;
      // Every core sends `looped` to an edge that does not hold it; that edge sends it back up.
      const other = edges.find((e) => e !== edge) as (typeof edges)[number];
      for (let p = 1; p <= core.portCount; p++) {
        const c = g.outChannel[(g.portOffset[core.index] as number) + p] as number;
        if (c >= 0 && g.channelToNode[c] === other.index) lft[looped.lid] = p;
      }
    }
    const load = staticRouteLoad(fabric, holed);
    const expected = bruteForce(fabric, holed);
    expect(load.routed).toBe(expected.routed);
    expect(load.unrouted + load.looping).toBe(expected.failed);
    expect(load.looping).toBeGreaterThan(0);
    expect(load.unrouted).toBeGreaterThan(0);
    // Channels on the loop are not counted for the looping paths; every other channel is.
    const g2 = fabricGraph(fabric);
    for (let c = 0; c < load.paths.length; c++) {
      const fromTier = fabric.nodes[g2.channelFromNode[c] as number]?.tier;
      if (fromTier === 2) continue;
      if (load.paths[c] !== expected.paths[c]) {
        // Only the edge up-ports the loop goes round differ.
        expect(fromTier).toBe(1);
      }
    }
  });

  it('yields as it goes and ends with the same load', () => {
    const fabric = buildScenario('fat-tree-1152');
    const tables = fatTreeRouting(fabric);
    const steps = staticRouteLoadSteps(fabric, tables, 100);
    const progress: number[] = [];
    let result = steps.next();
    while (!result.done) {
      progress.push(result.value);
      result = steps.next();
    }
    expect(progress.slice(0, 3)).toEqual([100, 200, 300]);
    expect(Array.from(result.value.paths)).toEqual(Array.from(staticRouteLoad(fabric, tables).paths));
  });

  describe('against the measured load', () => {
    const fabric = buildScenario('ar-demo');
    const load = staticRouteLoad(fabric, fatTreeRouting(fabric));
    const g = fabricGraph(fabric);
    const switchPorts = [...load.paths.keys()].filter(
      (c) => fabric.nodes[g.channelFromNode[c] as number]?.type === 'switch',
    );

    it("carries each port's utilization, the groups' means over known ports, and unknown as null", () => {
      const utilization = new Float64Array(load.paths.length).fill(Number.NaN);
      // Every switch output port known but the first: a load proportional to its paths.
      const [unknown, ...known] = switchPorts;
      const most = Math.max(...switchPorts.map((c) => load.paths[c] as number));
      for (const c of known) utilization[c] = (load.paths[c] as number) / most;
      const { groups, top, comparison } = summarizeStaticLoad(fabric, load, 1000, utilization);
      expect(comparison.measuredPorts).toBe(known.length);
      for (const port of top) {
        const c = switchPorts.find((k) => channelOf(fabric, k).id === port.link) as number;
        expect(port.utilization).toBe(c === unknown ? null : (load.paths[c] as number) / most);
      }
      for (const group of groups) {
        const members = switchPorts.filter((c) => groupKey(c) === `${group.tier} ${group.direction}`);
        const measured = members.filter((c) => c !== unknown);
        expect(group.measuredPorts).toBe(measured.length);
        const mean = measured.reduce((sum, c) => sum + (utilization[c] as number), 0) / measured.length;
        expect(group.meanUtilization).toBeCloseTo(mean, 12);
      }
    });

    it('correlation is 1 for a load proportional to the paths, -1 for one falling with them, null for a flat one', () => {
      fc.assert(
        fc.property(
          fc.double({ min: 1e-6, max: 1e-3, noNaN: true }),
          fc.double({ min: 0, max: 0.5, noNaN: true }),
          (slope, offset) => {
            const rising = new Float64Array(load.paths.length).fill(Number.NaN);
            const falling = new Float64Array(load.paths.length).fill(Number.NaN);
            const flat = new Float64Array(load.paths.length).fill(Number.NaN);
            for (const c of switchPorts) {
              rising[c] = offset + slope * (load.paths[c] as number);
              falling[c] = offset + 0.5 - slope * (load.paths[c] as number);
              flat[c] = offset;
            }
            const r = (u: Float64Array) => summarizeStaticLoad(fabric, load, 0, u).comparison.correlation;
            expect(r(rising)).toBeCloseTo(1, 9);
            expect(r(falling)).toBeCloseTo(-1, 9);
            expect(r(flat)).toBeNull();
          },
        ),
        { numRuns: 50 },
      );
    });

    it('lists the busiest of one kind of port only, the groups still covering every port', () => {
      const all = summarizeStaticLoad(fabric, load, 1000);
      const isl = summarizeStaticLoad(fabric, load, 1000, undefined, 'isl');
      const host = summarizeStaticLoad(fabric, load, 1000, undefined, 'host');
      expect(isl.top.every((p) => p.direction !== 'host')).toBe(true);
      expect(host.top.every((p) => p.direction === 'host')).toBe(true);
      expect(isl.top.length + host.top.length).toBe(all.top.length);
      expect(isl.groups).toEqual(all.groups);
    });

    it('without a measurement every utilization is null and nothing is compared', () => {
      const { groups, top, comparison } = summarizeStaticLoad(fabric, load, 5);
      expect(comparison).toEqual({ measuredPorts: 0, correlation: null });
      expect(top.every((p) => p.utilization === null)).toBe(true);
      expect(groups.every((gr) => gr.meanUtilization === null && gr.measuredPorts === 0)).toBe(true);
    });

    function groupKey(c: number): string {
      const from = fabric.nodes[g.channelFromNode[c] as number] as Fabric['nodes'][number];
      const to = fabric.nodes[g.channelToNode[c] as number] as Fabric['nodes'][number];
      const direction =
        to.type !== 'switch' ? 'host' : to.tier > from.tier ? 'up' : to.tier < from.tier ? 'down' : 'across';
      return `${from.tier} ${direction}`;
    }
  });
});
