/**
 * Lossless Ethernet (RoCE) in steady state, one pass per rate recomputation, linear in flows × hops:
 * a channel whose buffer fills (more offered than it drains) pauses, by PFC on the lossless priority, every
 * channel that feeds it, and a paused channel's buffer fills in turn, so the pause spreads upstream to the
 * senders. A paused channel slows every flow through it: the victims are those whose paths never reach the
 * full buffer. A full egress ECN-marks every RoCE packet (the queue is past Kmax once PFC acts); the receivers
 * answer with CNPs and the marked senders cut their excess as DCQCN does (docs/metrics.md, "Lossless Ethernet").
 */
export interface LosslessInput {
  paths: readonly Int32Array[];
  /** Max-min fair wire rates (bytes/s), and what each flow asks for. */
  rates: ArrayLike<number>;
  demands: ArrayLike<number>;
  capacities: ArrayLike<number>;
  /** Per flow: 1 for RoCE (ECN-capable, DCQCN at the sender). */
  roce: Uint8Array;
  /** Per channel: 1 where an Ethernet switch's egress (marks ECN, pauses its feeders). */
  switchEgress: Uint8Array;
  /** Per channel: 1 on Ethernet links (where pause is counted and slows flows). */
  ethernet: Uint8Array;
}

export interface LosslessState {
  /** Per channel: share of the time its sender is paused (PFC received on the lossless priority). */
  pausedShare: Float64Array;
  /** Per channel: the full channel whose buffer started the pause, -1 when not paused. */
  pauseOrigin: Int32Array;
  /** Per channel: offered over drained (> 1 where its buffer is full), 0 elsewhere. */
  overload: Float64Array;
  /** Per flow: whether its RoCE packets are ECN-marked, and the full channel a victim is slowed by (-1). */
  marked: Uint8Array;
  victimOf: Int32Array;
  /** Per flow: its wire rate after the pause (victims slowed; the others keep their max-min share). */
  rates: Float64Array;
}

/**
 * Share of its excess over the fair share a DCQCN sender keeps offering in steady state: the cut per CNP
 * (α/2) and the recovery between CNPs leave the queue oscillating above the PFC threshold under incast.
 */
export const DCQCN_RESIDUAL = 0.25;
const TOLERANCE = 1e-9;

/** Excess bytes/s each channel is offered beyond what it carries, from the flows held back there. */
function excessAt(input: LosslessInput, carried: Float64Array, maxRate: Float64Array): Float64Array {
  const { paths, rates, demands, capacities, roce, switchEgress } = input;
  const excess = new Float64Array(capacities.length);
  for (let f = 0; f < paths.length; f++) {
    const path = paths[f] as Int32Array;
    const rate = rates[f] as number;
    let solo = demands[f] as number;
    for (let i = 0; i < path.length; i++) solo = Math.min(solo, capacities[path[i] as number] as number);
    if (!(rate < solo * (1 - TOLERANCE))) continue;
    // The bottleneck: the first saturated channel where the flow has the largest share (max-min's). At the
    // sender's own port the excess waits in the NIC's send queues, which fill no switch buffer.
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      const saturated = (carried[c] as number) >= (capacities[c] as number) * (1 - TOLERANCE);
      if (!saturated || rate < (maxRate[c] as number) * (1 - TOLERANCE)) continue;
      if (i === 0) break;
      const residual = roce[f] === 1 && switchEgress[c] === 1 ? DCQCN_RESIDUAL : 1;
      excess[c] = (excess[c] as number) + (solo - rate) * residual;
      break;
    }
  }
  return excess;
}

/** Each channel's feeders (the channel before it on some flow's path), as compressed rows. */
function feeders(
  paths: readonly Int32Array[],
  channelCount: number,
): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(channelCount + 1);
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) {
      const next = (path[i] as number) + 1;
      start[next] = (start[next] as number) + 1;
    }
  }
  for (let c = 0; c < channelCount; c++) start[c + 1] = (start[c + 1] as number) + (start[c] as number);
  const list = new Int32Array(start[channelCount] as number);
  const fill = start.slice(0, channelCount);
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) {
      const c = path[i] as number;
      list[fill[c] as number] = path[i - 1] as number;
      fill[c] = (fill[c] as number) + 1;
    }
  }
  return { start, list };
}

/** Sum and largest of the flows' rates per channel. */
function channelSums(paths: readonly Int32Array[], rates: ArrayLike<number>, channelCount: number) {
  const carried = new Float64Array(channelCount);
  const maxRate = new Float64Array(channelCount);
  for (let f = 0; f < paths.length; f++) {
    const rate = rates[f] as number;
    for (const c of paths[f] as Int32Array) {
      carried[c] = (carried[c] as number) + rate;
      if (rate > (maxRate[c] as number)) maxRate[c] = rate;
    }
  }
  return { carried, maxRate };
}

/**
 * Marks every channel that feeds a full one, transitively, with the full channel it is paused for (most
 * overloaded first, each channel once); a full channel that is itself paused is no origin (its drain is
 * held back downstream), so origins resolve to the full channels nothing pauses.
 */
function propagatePause(paths: readonly Int32Array[], overload: Float64Array, seeds: number[]): Int32Array {
  const origin = new Int32Array(overload.length).fill(-1);
  const { start, list } = feeders(paths, overload.length);
  const stack: number[] = [];
  for (const seed of seeds) {
    stack.push(seed);
    while (stack.length > 0) {
      const c = stack.pop() as number;
      for (let k = start[c] as number; k < (start[c + 1] as number); k++) {
        const feeder = list[k] as number;
        if ((origin[feeder] as number) >= 0 || feeder === seed) continue;
        origin[feeder] = seed;
        stack.push(feeder);
      }
    }
  }
  for (const seed of seeds) if ((origin[seed] as number) >= 0) overload[seed] = 0;
  for (let c = 0; c < origin.length; c++) {
    let o = origin[c] as number;
    for (let guard = 0; o >= 0 && (origin[o] as number) >= 0 && guard < seeds.length; guard++)
      o = origin[o] as number;
    origin[c] = o;
  }
  return origin;
}

export function losslessEthernet(input: LosslessInput): LosslessState {
  const { paths, rates, capacities, roce, switchEgress, ethernet } = input;
  const channelCount = capacities.length;
  const { carried, maxRate } = channelSums(paths, rates, channelCount);
  const excess = excessAt(input, carried, maxRate);
  const overload = new Float64Array(channelCount);
  const seeds: number[] = [];
  for (let c = 0; c < channelCount; c++) {
    const cap = capacities[c] as number;
    if (!((excess[c] as number) > cap * TOLERANCE)) continue;
    overload[c] = ((carried[c] as number) + (excess[c] as number)) / cap;
    seeds.push(c);
  }
  seeds.sort((a, b) => (overload[b] as number) - (overload[a] as number));
  const pauseOrigin = propagatePause(paths, overload, seeds);
  const marked = new Uint8Array(paths.length);
  const full = new Uint8Array(paths.length);
  for (let f = 0; f < paths.length; f++) {
    for (const c of paths[f] as Int32Array) {
      if (!((overload[c] as number) > 0)) continue;
      full[f] = 1;
      if (roce[f] === 1 && switchEgress[c] === 1) marked[f] = 1;
    }
  }
  const victimOf = new Int32Array(paths.length).fill(-1);
  const out = slowVictims(paths, rates, full, pauseOrigin, ethernet, victimOf);
  const pausedShare = pauseShares(input, out, marked, pauseOrigin);
  return { pausedShare, pauseOrigin, overload, marked, victimOf, rates: out };
}

/**
 * A paused switch port's queue stands full, so the time it does not send is the time it is paused; a sender's
 * NIC paces its flows (DCQCN's rate for the marked ones, the line otherwise), so it is paused for the share of
 * that pace it does not get.
 */
function pauseShares(input: LosslessInput, rates: Float64Array, marked: Uint8Array, pauseOrigin: Int32Array) {
  const { paths, demands, capacities, ethernet } = input;
  const channelCount = capacities.length;
  const carried = channelSums(paths, rates, channelCount).carried;
  const paced = new Float64Array(channelCount);
  const nic = new Uint8Array(channelCount);
  for (let f = 0; f < paths.length; f++) {
    const path = paths[f] as Int32Array;
    let solo = demands[f] as number;
    for (const c of path) solo = Math.min(solo, capacities[c] as number);
    const rate = rates[f] as number;
    const pace = marked[f] === 1 ? rate + (solo - rate) * DCQCN_RESIDUAL : solo;
    const first = path[0] as number;
    nic[first] = 1;
    paced[first] = (paced[first] as number) + Math.max(rate, pace);
  }
  const pausedShare = new Float64Array(channelCount);
  for (let c = 0; c < channelCount; c++) {
    if (ethernet[c] !== 1) pauseOrigin[c] = -1;
    if ((pauseOrigin[c] as number) < 0) continue;
    const drain =
      nic[c] === 1 ? Math.min(paced[c] as number, capacities[c] as number) : (capacities[c] as number);
    pausedShare[c] = drain > 0 ? Math.min(1, Math.max(0, 1 - (carried[c] as number) / drain)) : 0;
  }
  return pausedShare;
}

/**
 * A victim (a flow through a paused Ethernet channel that reaches no full buffer) waits in the paused FIFO
 * behind the packets bound for the full buffer, so it moves at their pace: the fastest of them there.
 */
function slowVictims(
  paths: readonly Int32Array[],
  rates: ArrayLike<number>,
  full: Uint8Array,
  pauseOrigin: Int32Array,
  ethernet: Uint8Array,
  victimOf: Int32Array,
): Float64Array {
  const pace = new Float64Array(pauseOrigin.length).fill(-1);
  for (let f = 0; f < paths.length; f++) {
    if (full[f] !== 1) continue;
    for (const c of paths[f] as Int32Array) pace[c] = Math.max(pace[c] as number, rates[f] as number);
  }
  const out = Float64Array.from(rates);
  for (let f = 0; f < paths.length; f++) {
    if (full[f] === 1) continue;
    let limit = Number.POSITIVE_INFINITY;
    let by = -1;
    for (const c of paths[f] as Int32Array) {
      if (ethernet[c] !== 1 || (pauseOrigin[c] as number) < 0) continue;
      if (by < 0) by = pauseOrigin[c] as number;
      if ((pace[c] as number) >= 0 && (pace[c] as number) < limit) {
        limit = pace[c] as number;
        by = pauseOrigin[c] as number;
      }
    }
    if (by < 0) continue;
    victimOf[f] = by;
    out[f] = Math.min(rates[f] as number, limit);
  }
  return out;
}
