import { fabricGraph } from '../model/graph.ts';
import { channelOf, type Fabric, type FabricNode } from '../model/model.ts';
import type { StaticRouteLoad } from './static-load.ts';

/** Which way a switch's output port leads: to a host, a higher tier, a lower one, or the same. */
export type StaticLoadDirection = 'host' | 'up' | 'down' | 'across';

export interface StaticLoadPort {
  /** Link direction id `node/port->node/port`. */
  link: string;
  node: string;
  port: number;
  tier: number;
  direction: StaticLoadDirection;
  paths: number;
  /** Measured utilization 0..1 of the direction leaving the port; null when unknown or not given. */
  utilization: number | null;
}

export interface StaticLoadGroup {
  tier: number;
  direction: StaticLoadDirection;
  /** Cabled output ports in the group. */
  ports: number;
  min: number;
  max: number;
  mean: number;
  /** Mean measured utilization 0..1 over the group's ports with a known one; null when none is known. */
  meanUtilization: number | null;
  /** Ports of the group whose utilization is known. */
  measuredPorts: number;
}

/** Pearson's correlation of paths and measured load over switch output ports; null when it cannot vary. */
export interface StaticLoadComparison {
  measuredPorts: number;
  correlation: number | null;
}

/** The switch output ports of a load: the busiest, and per tier and direction the fewest, most and mean. */
export function summarizeStaticLoad(
  fabric: Fabric,
  load: StaticRouteLoad,
  limit: number,
  utilization?: Float64Array,
  /** Which output ports the busiest are chosen from: to switches (`isl`), to hosts, or all. */
  kind?: 'isl' | 'host',
): { groups: StaticLoadGroup[]; top: StaticLoadPort[]; comparison: StaticLoadComparison } {
  const g = fabricGraph(fabric);
  const { nodes } = fabric;
  // `mean` and `meanUtilization` hold sums until every port is counted.
  const groups = new Map<string, StaticLoadGroup>();
  const candidates: number[] = [];
  const measuredAt = (c: number): number | null => {
    const u = utilization?.[c];
    return u === undefined || Number.isNaN(u) ? null : u;
  };
  const directionOf = (c: number): StaticLoadDirection => {
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    const to = nodes[g.channelToNode[c] as number] as FabricNode;
    if (to.type !== 'switch') return 'host';
    return to.tier > from.tier ? 'up' : to.tier < from.tier ? 'down' : 'across';
  };
  const pairs = new PairStatistics();
  for (let c = 0; c < load.paths.length; c++) {
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    if (from.type !== 'switch') continue;
    const value = load.paths[c] as number;
    const direction = directionOf(c);
    const key = `${from.tier} ${direction}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        tier: from.tier,
        direction,
        ports: 0,
        min: value,
        max: value,
        mean: 0,
        meanUtilization: null,
        measuredPorts: 0,
      };
      groups.set(key, group);
    }
    group.ports++;
    group.mean += value;
    if (value < group.min) group.min = value;
    if (value > group.max) group.max = value;
    const measured = measuredAt(c);
    if (measured !== null) {
      group.measuredPorts++;
      group.meanUtilization = (group.meanUtilization ?? 0) + measured;
      pairs.add(value, measured);
    }
    if (kind === undefined || (kind === 'host') === (direction === 'host')) candidates.push(c);
  }
  const order: Record<StaticLoadDirection, number> = { host: 0, up: 1, across: 2, down: 3 };
  for (const group of groups.values()) {
    group.mean /= group.ports;
    if (group.meanUtilization !== null) group.meanUtilization /= group.measuredPorts;
  }
  const summary = [...groups.values()].sort(
    (a, b) => a.tier - b.tier || order[a.direction] - order[b.direction],
  );
  const top = topChannels(load.paths, candidates, limit).map((c): StaticLoadPort => {
    const channel = channelOf(fabric, c);
    const from = nodes[g.channelFromNode[c] as number] as FabricNode;
    return {
      link: channel.id,
      node: channel.from.node,
      port: channel.from.port,
      tier: from.tier,
      direction: directionOf(c),
      paths: load.paths[c] as number,
      utilization: measuredAt(c),
    };
  });
  return { groups: summary, top, comparison: { measuredPorts: pairs.n, correlation: pairs.correlation() } };
}

/** Running sums for Pearson's correlation of (x, y) pairs, centred on the first pair for precision. */
class PairStatistics {
  n = 0;
  private x0 = 0;
  private y0 = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private syy = 0;
  private sxy = 0;

  add(x: number, y: number): void {
    if (this.n === 0) {
      this.x0 = x;
      this.y0 = y;
    }
    const dx = x - this.x0;
    const dy = y - this.y0;
    this.n++;
    this.sx += dx;
    this.sy += dy;
    this.sxx += dx * dx;
    this.syy += dy * dy;
    this.sxy += dx * dy;
  }

  correlation(): number | null {
    const { n } = this;
    if (n < 2) return null;
    const vx = this.sxx - (this.sx * this.sx) / n;
    const vy = this.syy - (this.sy * this.sy) / n;
    // Relative to the sums' scale: below it the variance is rounding, the side constant.
    if (vx <= 1e-12 * Math.max(1, this.sxx) || vy <= 1e-12 * Math.max(1e-30, this.syy)) return null;
    const r = (this.sxy - (this.sx * this.sy) / n) / Math.sqrt(vx * vy);
    return Math.max(-1, Math.min(1, r));
  }
}

function topChannels(paths: Float64Array, candidates: number[], limit: number): number[] {
  if (limit <= 0 || candidates.length === 0) return [];
  let chosen = candidates;
  if (candidates.length > 4 * limit) {
    // The limit-th largest value bounds what can make the cut.
    const values = Float64Array.from(candidates, (c) => paths[c] as number).sort();
    const bound = values[Math.max(0, values.length - limit)] as number;
    chosen = candidates.filter((c) => (paths[c] as number) >= bound);
  }
  return chosen.sort((a, b) => (paths[b] as number) - (paths[a] as number) || a - b).slice(0, limit);
}
