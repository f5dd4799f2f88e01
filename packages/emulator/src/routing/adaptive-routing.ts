import { type FabricNode, type Random, randomIndex } from '@fabscope/topology';
import { type AdaptiveRoutingConfig, thresholdLoad } from './ar-config.ts';
import type { PathFinder } from './paths.ts';

/** What adaptive routing sees of a flow; it replaces `path` when it moves the flow. */
export interface RoutedFlow {
  path: Int32Array;
  /** Current rate (bytes/s, the units of the capacities), from the last rate computation. */
  rate: number;
  dest: FabricNode;
  /** Highest rate the flow asks for (same units); default unlimited (the path's capacity). */
  wireLimit?: number;
}

export interface AdjustContext {
  finder: PathFinder;
  /** Payload capacity per channel (bytes/s); 0 where the link is down. */
  capacities: Float64Array;
  /** 1 where the link (index channel >> 1) is up. */
  linkUp: Uint8Array;
  /** Node types by index: only switch-to-switch ports are adaptive. */
  isSwitch: Uint8Array;
  random: Random;
  /** Offered load per channel (bytes/s), so AR feels back-pressure from downstream; default carried load. */
  offered?: Float64Array;
}

const TOLERANCE = 1e-9;

/**
 * One adjustment pass of adaptive routing (opafm semantics): flows off down links first, then (unless
 * lostRouteOnly) off ISLs at the threshold, only to a port strictly less loaded, so a steady load never flaps.
 */
export function adjustRoutes(flows: RoutedFlow[], config: AdaptiveRoutingConfig, ctx: AdjustContext): number {
  if (!config.enabled) return 0;
  const { capacities, finder } = ctx;
  const load = new Float64Array(capacities.length);
  for (const flow of flows) {
    for (const c of flow.path) load[c] = (load[c] as number) + flow.rate;
  }
  const move = (flow: RoutedFlow, position: number, path: Int32Array) => {
    for (let i = position; i < flow.path.length; i++) {
      const c = flow.path[i] as number;
      load[c] = (load[c] as number) - flow.rate;
    }
    for (let i = position; i < path.length; i++) {
      const c = path[i] as number;
      load[c] = (load[c] as number) + flow.rate;
    }
    flow.path = path;
  };
  const fraction = (c: number) => {
    const cap = capacities[c] as number;
    return cap > 0 ? (load[c] as number) / cap : Number.POSITIVE_INFINITY;
  };
  let moves = 0;

  for (const flow of flows) {
    const broken = firstDownPosition(flow.path, ctx.linkUp);
    if (broken < 0) continue;
    for (let position = broken; position >= 1; position--) {
      const node = finder.channelFromNode[flow.path[position] as number] as number;
      const options: { channel: number; path: Int32Array }[] = [];
      for (const c of finder.equalCostChannels(node, flow.dest)) {
        if (c === flow.path[position]) continue;
        const path = tryReroute(finder, flow, position, c);
        if (path && firstDownPosition(path, ctx.linkUp) < 0) options.push({ channel: c, path });
      }
      const option = choose(options, (o) => fraction(o.channel), config.algorithm, ctx.random);
      if (option) {
        move(flow, position, option.path);
        moves++;
        break;
      }
    }
  }
  if (config.lostRouteOnly) return moves;

  const threshold = thresholdLoad(config.threshold) - TOLERANCE;
  const { offered } = ctx;
  const pressure = (c: number) => {
    const cap = capacities[c] as number;
    if (!(cap > 0)) return Number.POSITIVE_INFINITY;
    return Math.max(load[c] as number, offered ? (offered[c] as number) : 0) / cap;
  };
  // Flows by the channels they cross when the pass starts.
  const members = new Map<number, RoutedFlow[]>();
  for (const flow of flows) {
    if (!(flow.rate > 0) && offered === undefined) continue;
    for (const c of flow.path) {
      const list = members.get(c);
      if (list) list.push(flow);
      else members.set(c, [flow]);
    }
  }
  const hot = [...members.keys()]
    .filter((c) => isIsl(c, ctx) && pressure(c) >= threshold && (capacities[c] as number) > 0)
    .sort(
      (a, b) =>
        (finder.channelFromNode[a] as number) - (finder.channelFromNode[b] as number) ||
        (finder.channelFromPort[a] as number) - (finder.channelFromPort[b] as number),
    );
  for (const source of hot) {
    const node = finder.channelFromNode[source] as number;
    let first = true;
    for (const flow of members.get(source) ?? []) {
      // Carried load decides whether the port still needs relief once flows have moved off it.
      if (!first && fraction(source) < threshold) break;
      first = false;
      const position = flow.path.indexOf(source);
      if (position < 0) continue;
      // The worst channel of the path from here on is where the flow is held back (here or downstream).
      let want = flow.wireLimit ?? Number.POSITIVE_INFINITY;
      for (const c of flow.path) want = Math.min(want, capacities[c] as number);
      if (!(want > 0)) continue;
      const before = suffixLoad(flow.path, position, flow, want, load, capacities, null);
      const options: { channel: number; path: Int32Array; after: number }[] = [];
      for (const c of finder.equalCostChannels(node, flow.dest)) {
        if (c === source || !isIsl(c, ctx)) continue;
        const cap = capacities[c] as number;
        if (!(cap > 0) || fraction(c) >= threshold) continue;
        const path = tryReroute(finder, flow, position, c);
        if (!path || firstDownPosition(path, ctx.linkUp) >= 0) continue;
        const after = suffixLoad(path, position, flow, want, load, capacities, flow.path);
        if (after < before - TOLERANCE) options.push({ channel: c, path, after });
      }
      const option = choose(options, (o) => o.after, config.algorithm, ctx.random);
      if (option) {
        move(flow, position, option.path);
        moves++;
      }
    }
  }
  return moves;
}

/** Highest load on `path` from `position` on if `flow` ran at `want` instead of its present rate. */
function suffixLoad(
  path: Int32Array,
  position: number,
  flow: RoutedFlow,
  want: number,
  load: Float64Array,
  capacities: Float64Array,
  current: Int32Array | null,
): number {
  let worst = 0;
  for (let i = position; i < path.length; i++) {
    const c = path[i] as number;
    const cap = capacities[c] as number;
    if (!(cap > 0)) return Number.POSITIVE_INFINITY;
    const crossed = current === null || current.indexOf(c, position) >= 0;
    const value = ((load[c] as number) - (crossed ? flow.rate : 0) + want) / cap;
    if (value > worst) worst = value;
  }
  return worst;
}

function isIsl(channel: number, ctx: AdjustContext): boolean {
  const { finder, isSwitch } = ctx;
  return (
    isSwitch[finder.channelFromNode[channel] as number] === 1 &&
    isSwitch[finder.channelTo[channel] as number] === 1
  );
}

function firstDownPosition(path: Int32Array, linkUp: Uint8Array): number {
  for (let i = 0; i < path.length; i++) if (linkUp[(path[i] as number) >> 1] !== 1) return i;
  return -1;
}

function tryReroute(
  finder: PathFinder,
  flow: RoutedFlow,
  position: number,
  channel: number,
): Int32Array | null {
  try {
    return finder.rerouteAt(flow.path, position, channel, flow.dest);
  } catch {
    return null;
  }
}

/** The algorithm's pick among candidates (in port order), or undefined when there is none. */
function choose<T>(
  candidates: T[],
  load: (candidate: T) => number,
  algorithm: 0 | 1 | 2,
  random: Random,
): T | undefined {
  if (candidates.length === 0) return undefined;
  if (algorithm === 0) {
    return candidates.length === 1 ? candidates[0] : candidates[randomIndex(random, candidates.length)];
  }
  let least = Number.POSITIVE_INFINITY;
  for (const c of candidates) least = Math.min(least, load(c));
  const best = candidates.filter((c) => load(c) <= least + TOLERANCE);
  if (algorithm === 1 || best.length === 1) return best[0];
  return best[randomIndex(random, best.length)];
}
