/** A held-back flow queues at its bottleneck, so it and every port upstream wait for credit (XmitWait). */
export interface CongestionInput {
  paths: readonly ArrayLike<number>[];
  demands: ArrayLike<number>;
  rates: ArrayLike<number>;
  capacities: ArrayLike<number>;
}

const TOLERANCE = 1e-9;

/** Each port's wait fraction, 1 − carried / offered (0 where nothing is offered). */
export function waitingShares(carried: Float64Array, offered: Float64Array): Float64Array {
  const fractions = new Float64Array(carried.length);
  for (let c = 0; c < carried.length; c++) {
    const o = offered[c] as number;
    if (o > 0) fractions[c] = Math.max(0, 1 - (carried[c] as number) / o);
  }
  return fractions;
}

/** Carried and offered load per channel: held-back flows offer their solo rate up to their bottleneck. */
export function offeredLoad(input: CongestionInput): { carried: Float64Array; offered: Float64Array } {
  const { paths, demands, rates, capacities } = input;
  const channelCount = capacities.length;
  const carried = new Float64Array(channelCount);
  const maxRate = new Float64Array(channelCount);
  for (let f = 0; f < paths.length; f++) {
    const path = paths[f] as ArrayLike<number>;
    const rate = rates[f] as number;
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      carried[c] = (carried[c] as number) + rate;
      if (rate > (maxRate[c] as number)) maxRate[c] = rate;
    }
  }
  const offered = carried.slice();
  for (let f = 0; f < paths.length; f++) {
    const path = paths[f] as ArrayLike<number>;
    const rate = rates[f] as number;
    let solo = demands[f] as number;
    for (let i = 0; i < path.length; i++) solo = Math.min(solo, capacities[path[i] as number] as number);
    if (!(rate < solo * (1 - TOLERANCE))) continue;
    let bottleneck = -1;
    for (let i = 0; i < path.length && bottleneck < 0; i++) {
      const c = path[i] as number;
      const cap = capacities[c] as number;
      const saturated = (carried[c] as number) >= cap * (1 - TOLERANCE);
      if (saturated && rate >= (maxRate[c] as number) * (1 - TOLERANCE)) bottleneck = i;
    }
    for (let i = 0; i <= bottleneck; i++) {
      const c = path[i] as number;
      offered[c] = (offered[c] as number) + (solo - rate);
    }
  }
  return { carried, offered };
}
