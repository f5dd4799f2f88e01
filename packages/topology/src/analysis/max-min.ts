/** Max-min fair rates by progressive filling (Bertsekas & Gallager, "Data Networks", §6.5.2), with a lazy heap. */
export interface MaxMinProblem {
  /** Channel indices crossed by each flow (a channel repeated in a path counts once). */
  paths: readonly ArrayLike<number>[];
  /** Bytes/s each flow wants; Infinity means as fast as its path allows. */
  demands: ArrayLike<number>;
  /** Bytes/s each channel carries, by channel index. */
  capacities: ArrayLike<number>;
}

export function maxMinFair(problem: MaxMinProblem): Float64Array {
  const { paths, demands, capacities } = problem;
  const flowCount = paths.length;
  const channelCount = capacities.length;
  if (demands.length !== flowCount) {
    throw new RangeError(`got ${flowCount} paths but ${demands.length} demands`);
  }
  // Flow → channels (CSR) without repeats, each finite demand as a channel of its own after the real ones.
  const offsets = new Int32Array(flowCount + 1);
  const lastFlowOn = new Int32Array(channelCount).fill(-1);
  let size = 0;
  let demandChannels = 0;
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
      size++;
    }
    if (demand !== Number.POSITIVE_INFINITY) {
      size++;
      demandChannels++;
    }
    offsets[f + 1] = size;
  }
  const channels = new Int32Array(size);
  const capacity = new Float64Array(channelCount + demandChannels);
  for (let c = 0; c < channelCount; c++) capacity[c] = capacities[c] as number;
  lastFlowOn.fill(-1);
  let at = 0;
  let next = channelCount;
  for (let f = 0; f < flowCount; f++) {
    const path = paths[f] as ArrayLike<number>;
    for (let i = 0; i < path.length; i++) {
      const c = path[i] as number;
      if (lastFlowOn[c] === f) continue;
      lastFlowOn[c] = f;
      channels[at++] = c;
    }
    const demand = demands[f] as number;
    if (demand !== Number.POSITIVE_INFINITY) {
      capacity[next] = demand;
      channels[at++] = next++;
    }
  }
  return progressiveFilling(offsets, channels, capacity);
}

/** Progressive filling over flow → channel CSR rows (no channel twice in a row). */
function progressiveFilling(offsets: Int32Array, channels: Int32Array, capacity: Float64Array): Float64Array {
  const flowCount = offsets.length - 1;
  const channelCount = capacity.length;
  const rates = new Float64Array(flowCount);
  const remaining = Float64Array.from(capacity);
  const active = new Int32Array(channelCount);
  for (let i = 0; i < channels.length; i++) {
    const c = channels[i] as number;
    active[c] = (active[c] as number) + 1;
  }
  // Flows per channel (CSR), to freeze a bottleneck's flows.
  const chanStart = new Int32Array(channelCount + 1);
  for (let c = 0; c < channelCount; c++) chanStart[c + 1] = (chanStart[c] as number) + (active[c] as number);
  const fill = chanStart.slice(0, channelCount);
  const chanFlows = new Int32Array(channels.length);
  for (let f = 0; f < flowCount; f++) {
    for (let i = offsets[f] as number; i < (offsets[f + 1] as number); i++) {
      const c = channels[i] as number;
      const at = fill[c] as number;
      chanFlows[at] = f;
      fill[c] = at + 1;
    }
  }
  const frozen = new Uint8Array(flowCount);
  const heap = new Heap();
  for (let c = 0; c < channelCount; c++) {
    if ((active[c] as number) > 0) heap.push((remaining[c] as number) / (active[c] as number), c);
  }
  while (heap.size > 0) {
    const [share, c] = heap.pop();
    const n = active[c] as number;
    if (n === 0) continue;
    const current = Math.max(0, remaining[c] as number) / n;
    if (current !== share) continue; // stale entry: a newer one is in the heap
    for (let i = chanStart[c] as number; i < (chanStart[c + 1] as number); i++) {
      const f = chanFlows[i] as number;
      if (frozen[f]) continue;
      frozen[f] = 1;
      rates[f] = current;
      for (let j = offsets[f] as number; j < (offsets[f + 1] as number); j++) {
        const d = channels[j] as number;
        remaining[d] = (remaining[d] as number) - current;
        active[d] = (active[d] as number) - 1;
        if (d !== c && (active[d] as number) > 0)
          heap.push(Math.max(0, remaining[d] as number) / (active[d] as number), d);
      }
    }
    active[c] = 0;
  }
  return rates;
}

/** A min-heap of (key, value) pairs in parallel typed arrays. */
class Heap {
  private keys = new Float64Array(1024);
  private values = new Int32Array(1024);
  size = 0;

  push(key: number, value: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const v = new Int32Array(this.size * 2);
      v.set(this.values);
      this.values = v;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.keys[parent] as number) <= key) break;
      this.keys[i] = this.keys[parent] as number;
      this.values[i] = this.values[parent] as number;
      i = parent;
    }
    this.keys[i] = key;
    this.values[i] = value;
  }

  pop(): [number, number] {
    const top: [number, number] = [this.keys[0] as number, this.values[0] as number];
    const last = --this.size;
    const key = this.keys[last] as number;
    const value = this.values[last] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && (this.keys[child + 1] as number) < (this.keys[child] as number)) child++;
      if ((this.keys[child] as number) >= key) break;
      this.keys[i] = this.keys[child] as number;
      this.values[i] = this.values[child] as number;
      i = child;
    }
    this.keys[i] = key;
    this.values[i] = value;
    return top;
  }
}
