/**
 * Max-min fair rates by progressive filling (Bertsekas & Gallager, "Data Networks", 2nd ed.,
 * §6.5.2): repeatedly find the channel whose remaining capacity split over its unfrozen flows is
 * smallest, give each of those flows that share and freeze them. A binary heap with lazy deletion
 * keeps it O(Σ path length · log channels).
 *
 * @param offsets CSR row starts: flow f crosses channels[offsets[f] .. offsets[f + 1]).
 * @param channels channel indices of every flow's path.
 * @param capacity capacity of each channel (any unit; rates come back in it).
 */
export function maxMinRates(offsets: Int32Array, channels: Int32Array, capacity: Float64Array): Float64Array {
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
