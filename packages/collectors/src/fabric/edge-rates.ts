import {
  counterRate,
  DATA_RATE_SPIKE_FACTOR,
  type PortErrorRates,
  type PortRateReading,
} from '@fabscope/topology';
import { ERROR_COUNTER_KEYS, ERROR_COUNTERS, type ErrorCounterKey } from './error-counters.ts';
import type { FabricSnapshot, PortSample } from './port-sample.ts';

/** The error fields that are counters (rated), and the two gauges (read as values). */
export const ERROR_RATE_KEYS = ERROR_COUNTER_KEYS.filter((k) => ERROR_COUNTERS[k].type === 'counter');
export const ERROR_GAUGE_KEYS = ERROR_COUNTER_KEYS.filter((k) => ERROR_COUNTERS[k].type === 'gauge');

/** Sparse series per port (its error fields) and per direction (the six categories, the error sum). */
export const PORT_SPARSE = ERROR_COUNTER_KEYS.length;
export const DIRECTION_SPARSE = 7;
/** Sweeps a sparse series is still written at its idle value after leaving it, so a store that missed a scrape sees the return. */
export const SPARSE_TAIL = 3;

/** Data, packets and XmitWait, then the error counters: what a port's reading keeps. */
const DATA_FIELDS = 5;
const FIELDS = DATA_FIELDS + ERROR_RATE_KEYS.length;

/** One sweep: a read of the source and every port's rates since its previous one. */
export interface EdgeSweep {
  snapshot: FabricSnapshot;
  /** When the counters were read (the source's time, else the collector's), Unix ms: the gauges' timestamp. */
  timeMs: number;
  /** Seconds since the previous sweep, when that one read the source; null otherwise. */
  intervalSeconds: number | null;
  /** Per port: its rates since the previous sweep, or null for a gap (first reading, reset, missed sweep). */
  rates: (PortRateReading | null)[];
  /** Per port of the snapshot: the snapshot index of the port at the far end of its cable, -1 when not in it. */
  remoteIndex: Int32Array;
  /** Per port of the snapshot: its slot (the state kept across sweeps). */
  slots: Int32Array;
  /** The sweep's number (failed reads count). */
  number: number;
}

function grow<T extends Float64Array | Int32Array | Uint8Array>(array: T, length: number, fill: number): T {
  if (array.length >= length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(length, array.length * 2));
  next.fill(fill);
  next.set(array);
  return next;
}

/** A port's reading into `out` (reused: one port at a time, no array per port and sweep). */
function readings(p: PortSample, out: Float64Array): Float64Array {
  out[0] = p.transmitBytes;
  out[1] = p.receiveBytes;
  out[2] = p.transmitPackets;
  out[3] = p.receivePackets;
  out[4] = p.transmitWaitTicks;
  const errors = p.errors;
  for (let k = 0; k < ERROR_RATE_KEYS.length; k++)
    out[DATA_FIELDS + k] = errors?.[ERROR_RATE_KEYS[k] as ErrorCounterKey] ?? Number.NaN;
  return out;
}

const scratch = new Float64Array(FIELDS);

/** No packet is shorter than a link header's 8 bytes: more packets than the data rate / 8 is a counter step. */
const MIN_PACKET_BYTES = 8;

/**
 * Each port's previous reading and every sweep's rates from it: exact deltas of consecutive reads (`counterRate`).
 * A reset, a saturated counter, a spike or a missed sweep is a gap, never a rate spread over two sweeps.
 */
export class EdgeRates {
  private readonly slotOfKey = new Map<string, number>();
  private readonly keys: string[] = [];
  private lastSweep = new Int32Array(0);
  private lastTime = new Float64Array(0);
  private values = new Float64Array(0);
  private resetCount = new Float64Array(0);
  /** Per slot and sparse series: sweeps its idle value is still written (PORT_SPARSE, DIRECTION_SPARSE per slot). */
  portTail = new Uint8Array(0);
  directionTail = new Uint8Array(0);
  private sweepNumber = 0;
  private last: EdgeSweep | null = null;
  /** The previous successful sweep's time and number. */
  private previous: { timeMs: number; number: number } | null = null;
  /** What `update` derives from the ports' order alone, kept while the snapshot's layout stays. */
  private byLayout: {
    layout: object;
    mine: ((p: PortSample) => boolean) | undefined;
    slots: Int32Array;
    remoteIndex: Int32Array;
    wanted: Uint8Array;
  } | null = null;

  /** The slot of a port key, made on first sight. */
  slotOf(key: string): number {
    let slot = this.slotOfKey.get(key);
    if (slot !== undefined) return slot;
    slot = this.keys.length;
    this.keys.push(key);
    this.slotOfKey.set(key, slot);
    const n = slot + 1;
    this.lastSweep = grow(this.lastSweep, n, -1);
    this.lastTime = grow(this.lastTime, n, Number.NaN);
    this.values = grow(this.values, n * FIELDS, Number.NaN);
    this.resetCount = grow(this.resetCount, n, 0);
    this.portTail = grow(this.portTail, n * PORT_SPARSE, 0);
    this.directionTail = grow(this.directionTail, n * DIRECTION_SPARSE, 0);
    return slot;
  }

  /** Times the port's counters went backwards, as this collector saw them. */
  resets(slot: number): number {
    return this.resetCount[slot] ?? 0;
  }

  /** A read that failed: the next sweep's rates are a gap, as every port missed this one. */
  miss(): void {
    this.sweepNumber++;
  }

  /** Each port's slot, its far end's index in `ports`, and whether this collector keeps it. */
  private derive(
    ports: readonly PortSample[],
    mine: ((p: PortSample) => boolean) | undefined,
  ): { slots: Int32Array; remoteIndex: Int32Array; wanted: Uint8Array } {
    const n = ports.length;
    const slots = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const p = ports[i] as PortSample;
      slots[i] = this.slotOf(`${p.nodeGuid}/${p.portNumber}`);
    }
    const indexOfSlot = new Int32Array(this.keys.length).fill(-1);
    for (let i = 0; i < n; i++) indexOfSlot[slots[i] as number] = i;
    const remoteIndex = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const remote = (ports[i] as PortSample).remote;
      if (!remote) continue;
      const slot = this.slotOfKey.get(`${remote.nodeGuid}/${remote.portNumber}`);
      if (slot !== undefined && slot < indexOfSlot.length) remoteIndex[i] = indexOfSlot[slot] as number;
    }
    // A shard's collector rates only its own ports and their far ends, even from a shared read.
    const wanted = new Uint8Array(n).fill(mine ? 0 : 1);
    if (mine) {
      for (let i = 0; i < n; i++) {
        if (!mine(ports[i] as PortSample)) continue;
        wanted[i] = 1;
        const r = remoteIndex[i] as number;
        if (r >= 0) wanted[r] = 1;
      }
    }
    return { slots, remoteIndex, wanted };
  }

  /**
   * The sweep of `snapshot`, read at `timeMs`, for the ports `mine` says and their far ends. The
   * same read again is the same sweep, not a new one with no time passed.
   */
  update(snapshot: FabricSnapshot, timeMs: number, mine?: (p: PortSample) => boolean): EdgeSweep {
    const last = this.last;
    if (last && (last.snapshot === snapshot || last.timeMs === timeMs)) return last;
    const number = ++this.sweepNumber;
    const ports = snapshot.ports;
    const n = ports.length;
    const held = this.byLayout;
    const { slots, remoteIndex, wanted } =
      held !== null && snapshot.layout !== undefined && held.layout === snapshot.layout && held.mine === mine
        ? held
        : this.derive(ports, mine);
    this.byLayout =
      snapshot.layout === undefined ? null : { layout: snapshot.layout, mine, slots, remoteIndex, wanted };
    const rates: (PortRateReading | null)[] = new Array(n).fill(null);
    for (let i = 0; i < n; i++) {
      if (wanted[i]) rates[i] = this.read(slots[i] as number, ports[i] as PortSample, number, timeMs);
    }
    const previous = this.previous;
    const sweep: EdgeSweep = {
      snapshot,
      timeMs,
      intervalSeconds:
        previous && previous.number === number - 1 && timeMs > previous.timeMs
          ? (timeMs - previous.timeMs) / 1000
          : null,
      rates,
      remoteIndex,
      slots,
      number,
    };
    this.previous = { timeMs, number };
    this.last = sweep;
    return sweep;
  }

  /** Keeps the port's reading and returns its rates since the previous one, or null (a gap). */
  private read(slot: number, p: PortSample, number: number, sweepMs: number): PortRateReading | null {
    // A port read at its own instant is rated over its own interval, not the sweep's.
    const timeMs = p.countersReadAtMs ?? sweepMs;
    const now = readings(p, scratch);
    const at = slot * FIELDS;
    const values = this.values;
    let backwards = false;
    for (let f = 0; f < FIELDS; f++) {
      const before = values[at + f] as number;
      const v = now[f] as number;
      if (v < before) backwards = true;
    }
    if (backwards) this.resetCount[slot] = (this.resetCount[slot] as number) + 1;
    const consecutive = this.lastSweep[slot] === number - 1;
    const seconds = (timeMs - (this.lastTime[slot] as number)) / 1000;
    let rates: PortRateReading | null = null;
    if (consecutive && !backwards && seconds > 0) {
      const rate = (f: number, maxPerSecond?: number) =>
        counterRate(values[at + f] as number, now[f] as number, seconds, { maxPerSecond });
      // A step no link could carry in the interval (a counter set, a clear climbing past its old value) is a gap.
      const maxBytes = p.rateBytesPerSecond > 0 ? p.rateBytesPerSecond * DATA_RATE_SPIKE_FACTOR : undefined;
      const maxPackets = maxBytes === undefined ? undefined : maxBytes / MIN_PACKET_BYTES;
      const tick = p.transmitWaitTickSeconds;
      const maxTicks = tick !== undefined && tick > 0 ? DATA_RATE_SPIKE_FACTOR / tick : undefined;
      rates = {
        transmitBytesPerSecond: rate(0, maxBytes),
        receiveBytesPerSecond: rate(1, maxBytes),
        transmitPacketsPerSecond: rate(2, maxPackets),
        receivePacketsPerSecond: rate(3, maxPackets),
        transmitWaitTicksPerSecond: rate(4, maxTicks),
        transmitWaitTickSeconds:
          p.transmitWaitTickSeconds !== undefined && p.transmitWaitTickSeconds > 0
            ? p.transmitWaitTickSeconds
            : null,
      };
      const counted = p.errors;
      if (counted) {
        const errors: PortErrorRates = {};
        ERROR_RATE_KEYS.forEach((key, k) => {
          if (counted[key] === undefined) return;
          const r = rate(DATA_FIELDS + k);
          if (r === null) return;
          errors[key] = r;
        });
        for (const key of ERROR_GAUGE_KEYS) {
          const v = counted[key];
          if (v === undefined || !Number.isFinite(v)) continue;
          errors[key] = v;
        }
        rates.errors = errors;
      }
    }
    for (let f = 0; f < FIELDS; f++) values[at + f] = now[f] as number;
    this.lastSweep[slot] = number;
    this.lastTime[slot] = timeMs;
    return rates;
  }
}
