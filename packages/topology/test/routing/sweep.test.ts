import { describe, expect, it } from 'vitest';
import {
  buildScenario,
  fabricGraph,
  fatTreeRouting,
  LOWEST_PORT_MIN_HOP,
  lowestPortMinHopRouting,
  routeBetween,
  routingFor,
  survivingFabric,
  sweepTables,
  tablesAfterSweep,
} from '../../src/index.ts';

/** Hop distances between switches-only paths from `from`, by breadth-first search. */
function hops(fabric: ReturnType<typeof buildScenario>, from: number, to: number): number {
  const g = fabricGraph(fabric);
  const distance = new Int32Array(fabric.nodes.length).fill(-1);
  distance[from] = 0;
  let frontier = [from];
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[] = [];
    for (const n of frontier) {
      if (n !== from && g.isSwitch[n] !== 1) continue;
      for (let p = (g.portOffset[n] as number) + 1; p < (g.portOffset[n + 1] as number); p++) {
        const c = g.outChannel[p] as number;
        const peer = c < 0 ? -1 : (g.channelToNode[c] as number);
        if (peer < 0 || distance[peer] !== -1) continue;
        distance[peer] = d;
        next.push(peer);
      }
    }
    frontier = next;
  }
  return distance[to] as number;
}

describe('the fabric manager’s sweep', () => {
  const fabric = buildScenario('fat-tree-1152');
  const isl = fabric.links.find((l) => l.kind === 'isl');
  const linkUp = new Uint8Array(fabric.links.length).fill(1);
  linkUp[isl?.index as number] = 0;

  it('falls back to lowest-port min-hop tables when fattree refuses a fat tree that lost a link', () => {
    const tables = sweepTables(fabric, linkUp, routingFor('fattree'));
    expect(tables.engine).toBe(LOWEST_PORT_MIN_HOP);
    const alive = survivingFabric(fabric, linkUp);
    const hosts = fabric.nodes.filter((n) => n.type === 'host');
    const dead = new Set([`${isl?.a.node}/${isl?.a.port}->${isl?.b.node}/${isl?.b.port}`]);
    dead.add(`${isl?.b.node}/${isl?.b.port}->${isl?.a.node}/${isl?.a.port}`);
    for (let i = 0; i < hosts.length; i += 37) {
      const a = hosts[i] as (typeof hosts)[number];
      const b = hosts[(i * 7 + 500) % hosts.length] as (typeof hosts)[number];
      if (a === b) continue;
      const route = routeBetween(fabric, tables, a.name, b.name);
      // Shortest over what is left, never over the dead link.
      expect(route.channels.length).toBe(hops(alive, a.index, b.index));
      expect(describeLinks(fabric, route.channels).some((id) => dead.has(id))).toBe(false);
    }
  });

  it('is rebuilt exactly from what the fabric manager reports (engine and down links)', () => {
    const swept = sweepTables(fabric, linkUp, routingFor('fattree'));
    const rebuilt = tablesAfterSweep(fabric, swept.engine, [isl?.id as string]);
    expect(rebuilt.engine).toBe(swept.engine);
    expect(rebuilt.bySwitch).toEqual(swept.bySwitch);
    const whole = tablesAfterSweep(fabric, 'fattree', []);
    expect(whole.bySwitch).toEqual(fatTreeRouting(fabric).bySwitch);
    expect(() => tablesAfterSweep(fabric, 'fattree', ['nope/1--nope/2'])).toThrow(/unknown link/);
    expect(() => tablesAfterSweep(fabric, 'ecmp', [])).toThrow(/unknown routing engine/);
  });

  it('lowest-port min-hop picks the lowest port among the shortest: on an intact tree, up through port 25', () => {
    const tables = lowestPortMinHopRouting(fabric);
    const edge = fabric.nodes.find(
      (n) => n.type === 'switch' && n.tier === 1,
    ) as (typeof fabric.nodes)[number];
    const far = fabric.nodes.filter((n) => n.type === 'host').at(-1) as (typeof fabric.nodes)[number];
    // Ports 1–24 of an edge switch go down to hosts, 25–48 up to the 24 cores.
    expect(tables.bySwitch[edge.index]?.[far.lid]).toBe(25);
  });
});

function describeLinks(fabric: ReturnType<typeof buildScenario>, channels: readonly number[]): string[] {
  const g = fabricGraph(fabric);
  return channels.map((c) => {
    const from = fabric.nodes[g.channelFromNode[c] as number]?.name;
    const to = fabric.nodes[g.channelToNode[c] as number]?.name;
    return `${from}/${g.channelFromPort[c]}->${to}/${g.channelToPort[c]}`;
  });
}
