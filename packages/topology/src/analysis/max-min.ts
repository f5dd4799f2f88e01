/**
 * Max-min fair rate allocation by progressive filling (water-filling), as in Bertsekas &
 * Gallager, "Data Networks" (2nd ed., §6.5.2). All unfrozen flows rise together at one water
 * level; a channel saturates when its remaining capacity, shared by its unfrozen flows, is used
 * up; a flow freezes when a channel on its path saturates or when it meets its demand.
 *
 * Cost: O(total path length) to index, then O(iterations × (unfrozen flows + live channels)),
 * where iterations is the number of distinct bottleneck levels.
 */
export interface MaxMinProblem {
  /** Channel indices crossed by each flow (a channel repeated in a path counts once). */
  paths: readonly ArrayLike<number>[];
  /** Bytes/s each flow wants; Infinity means as fast as its path allows. */
  demands: ArrayLike<number>;
  /** Bytes/s each channel carries, by channel index. */
  capacities: ArrayLike<number>;
}

/** Relative tolerance deciding that a channel is saturated at the current water level. */
const EPSILON = 1e-12;

export function maxMinFair(problem: MaxMinProblem): Float64Array {
  const { paths, demands, capacities } = problem;
  const flowCount = paths.length;
  const channelCount = capacities.length;
  if (demands.length !== flowCount) {
    throw new RangeError(`got ${flowCount} paths but ${demands.length} demands`);
  }
  const rates = new Float64Array(flowCount);
  if (flowCount === 0) return rates;

  // Count flows per channel, then lay out channel → flows (CSR), dropping repeats in one path.
  const flowsPerChannel = new Int32Array(channelCount + 1);
  const lastFlowOn = new Int32Array(channelCount).fill(-1);
  for (let f = 0; f < flowCount; f++) {
    const path = paths[f] as ArrayLike<number>;
    const demand = demands[f] as number;
    if (!(demand >= 0)) throw new RangeError(`flow ${f}: demand must be ≥ 0, got ${demand}`);
    if (path.length === 0 && demand === Number.POSITIVE_INFINITY) {
      throw new RangeError(`flow ${f}: an empty path needs a finite demand`);
    }
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      if (!(c >= 0 && c < channelCount && Number.isInteger(c))) {
        throw new RangeError(`flow ${f}: channel ${c} is not in 0..${channelCount - 1}`);
      }
      if (lastFlowOn[c] === f) continue;
      lastFlowOn[c] = f;
      (flowsPerChannel[c + 1] as number)++;
    }
  }
  const start = flowsPerChannel;
  for (let c = 0; c < channelCount; c++) start[c + 1] = (start[c + 1] as number) + (start[c] as number);
  const members = new Int32Array(start[channelCount] as number);
  const fill = start.slice(0, channelCount);
  lastFlowOn.fill(-1);
  for (let f = 0; f < flowCount; f++) {
    const path = paths[f] as ArrayLike<number>;
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      if (lastFlowOn[c] === f) continue;
      lastFlowOn[c] = f;
      members[(fill[c] as number)++] = f;
    }
  }

  // Per channel: capacity already taken by frozen flows, and how many unfrozen flows cross it.
  const frozenLoad = new Float64Array(channelCount);
  const unfrozenCount = new Int32Array(channelCount);
  const frozen = new Uint8Array(flowCount);
  // Channels and flows still rising, compacted in place as they freeze.
  const liveChannels = new Int32Array(channelCount);
  let liveChannelCount = 0;
  for (let c = 0; c < channelCount; c++) {
    const n = (start[c + 1] as number) - (start[c] as number);
    unfrozenCount[c] = n;
    if (n > 0) liveChannels[liveChannelCount++] = c;
  }
  const liveFlows = new Int32Array(flowCount);
  let liveFlowCount = flowCount;
  for (let f = 0; f < flowCount; f++) liveFlows[f] = f;

  const freeze = (f: number, rate: number) => {
    frozen[f] = 1;
    rates[f] = rate;
    const path = paths[f] as ArrayLike<number>;
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      if (lastFlowOn[c] === -2 - f) continue; // already counted for this flow
      lastFlowOn[c] = -2 - f;
      frozenLoad[c] = (frozenLoad[c] as number) + rate;
      unfrozenCount[c] = (unfrozenCount[c] as number) - 1;
    }
  };

  while (liveFlowCount > 0) {
    // The next level: the lowest at which a channel saturates or a flow meets its demand.
    let level = Number.POSITIVE_INFINITY;
    for (let i = 0; i < liveChannelCount; i++) {
      const c = liveChannels[i] as number;
      const share =
        Math.max(0, (capacities[c] as number) - (frozenLoad[c] as number)) / (unfrozenCount[c] as number);
      if (share < level) level = share;
    }
    for (let i = 0; i < liveFlowCount; i++) {
      const demand = demands[liveFlows[i] as number] as number;
      if (demand < level) level = demand;
    }
    const limit = level + level * EPSILON;
    // Freeze flows that meet their demand, then every unfrozen flow on a saturated channel.
    for (let i = 0; i < liveFlowCount; i++) {
      const f = liveFlows[i] as number;
      if ((demands[f] as number) <= limit) freeze(f, demands[f] as number);
    }
    let keptChannels = 0;
    for (let i = 0; i < liveChannelCount; i++) {
      const c = liveChannels[i] as number;
      const n = unfrozenCount[c] as number;
      if (n === 0) continue;
      const share = Math.max(0, (capacities[c] as number) - (frozenLoad[c] as number)) / n;
      if (share <= limit) {
        for (let m = start[c] as number, end = start[c + 1] as number; m < end; m++) {
          const f = members[m] as number;
          if (frozen[f] === 0) freeze(f, level);
        }
      } else {
        liveChannels[keptChannels++] = c;
      }
    }
    liveChannelCount = 0;
    for (let i = 0; i < keptChannels; i++) {
      const c = liveChannels[i] as number;
      if ((unfrozenCount[c] as number) > 0) liveChannels[liveChannelCount++] = c;
    }
    let keptFlows = 0;
    for (let i = 0; i < liveFlowCount; i++) {
      const f = liveFlows[i] as number;
      if (frozen[f] === 0) liveFlows[keptFlows++] = f;
    }
    liveFlowCount = keptFlows;
  }
  return rates;
}
