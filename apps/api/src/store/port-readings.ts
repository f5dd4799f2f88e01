import { ERROR_FIELDS, type ErrorRates, PORT_GAUGES } from '@fabscope/contracts';
import { counterRate } from '@fabscope/topology';
import type { PortRates } from '../lib/port-rates.ts';
import { slicedLoop } from '../lib/sliced.ts';
import { portTimeMs } from './scrape-request.ts';
import {
  COUNTER_SEEN,
  FIELD_COUNT,
  FIELDS,
  grow,
  LINK_UP,
  PHYSICAL_STATE,
  RATE,
  READ_AT,
  STAGED,
  WAIT_TICK,
} from './scrape-staging.ts';
import { SlotPorts } from './slot-ports.ts';
import type { CounterField, PortTotals } from './types.ts';

/**
 * The ring keeps data, packets and XmitWait (staged fields 0..4); the error families, scraped less
 * often, are kept apart as the last two readings that carried them.
 */
const RING_FIELDS = 5;
const ERROR_AT = RING_FIELDS;
const ERROR_COUNT = FIELD_COUNT - ERROR_AT;
/** Error-field index from which the fields are gauges (read as they are, not as rates). */
const GAUGE_FROM = ERROR_COUNT - Object.keys(PORT_GAUGES).length;

/** A data rate above this multiple of the link's rate is a spike, not traffic. */
const MAX_RATE_FACTOR = 1.5;
/**
 * The smallest packet any fabric sends (bytes; an InfiniBand header-only packet is 26 with its CRCs, an Ethernet frame
 * 64): more packets a second than the link's data rate fits of them is a counter step or reset, not traffic.
 */
const MIN_PACKET_BYTES = 16;
/** Where a port's link rate is not reported: more than this many bytes a second is no link's (800 Gb/s is 1e11). */
const NO_LINK_BYTES_PER_SECOND = 1e12;
const NO_LIMITS = {};

/**
 * The embedded store's last readings per port slot: a typed-array ring of `depth` readings (time, then counters), the
 * latest link rate, XmitWait tick length and link state, and the scrape under way (label blocks may share a port).
 */
export class PortReadings {
  readonly slots = new Map<string, number>();
  readonly keys: string[] = [];
  private times = new Float64Array(0);
  private values = new Float64Array(0);
  private head = new Int32Array(0);
  private count = new Int32Array(0);
  /** Link rate (bytes/s) per port, when the exporter reports it; NaN unknown. */
  private capacity = new Float64Array(0);
  /** Length of one XmitWait tick (seconds) per port, when the exporter reports it; NaN unknown. */
  private waitTick = new Float64Array(0);
  /** Latest link state per port (1 up, 0 down, -1 never read) and when it was read. */
  private linkUp = new Int8Array(0);
  private linkUpTime = new Float64Array(0);
  /** Latest PortPhysicalState per port (NaN never read) and when it was read. */
  private physical = new Float64Array(0);
  private physicalTime = new Float64Array(0);
  /** The last two readings of the error fields per port (ERROR_COUNT each; NaN unknown) and their times. */
  private errorNow = new Float64Array(0);
  private errorBefore = new Float64Array(0);
  private errorNowTime = new Float64Array(0);
  private errorBeforeTime = new Float64Array(0);
  /**
   * Per port, the last error rates and the time of the error reading they came from: error families are read less often
   * than data, so most ticks give the same object again (readers never change a port's rates).
   */
  private errorRates: (ErrorRates | undefined)[] = [];
  private errorRatesOf = new Float64Array(0);
  // Per-port staging of one target's scrape, STAGED values per slot (scrape-staging.ts).
  stagedValue = new Float64Array(0);
  stagedLine = new Float64Array(0);
  private tokens = 0;
  stagedMark = new Int32Array(0);

  constructor(readonly depth: number) {}

  /** A new mark for the staging of one target's scrape (text and Arrow alike). */
  nextToken(): number {
    return ++this.tokens;
  }

  /** The slot of a port key, made on first sight. */
  slotOf(key: string): number {
    let slot = this.slots.get(key);
    if (slot !== undefined) return slot;
    slot = this.keys.length;
    this.keys.push(key);
    this.slots.set(key, slot);
    const n = slot + 1;
    this.times = grow(this.times, n * this.depth, Number.NaN);
    this.values = grow(this.values, n * this.depth * RING_FIELDS, Number.NaN);
    this.errorNow = grow(this.errorNow, n * ERROR_COUNT, Number.NaN);
    this.errorBefore = grow(this.errorBefore, n * ERROR_COUNT, Number.NaN);
    this.errorNowTime = grow(this.errorNowTime, n, Number.NaN);
    this.errorBeforeTime = grow(this.errorBeforeTime, n, Number.NaN);
    this.errorRatesOf = grow(this.errorRatesOf, n, Number.NaN);
    this.head = grow(this.head, n, -1);
    this.count = grow(this.count, n, 0);
    this.capacity = grow(this.capacity, n, Number.NaN);
    this.waitTick = grow(this.waitTick, n, Number.NaN);
    this.linkUp = grow(this.linkUp, n, -1);
    this.linkUpTime = grow(this.linkUpTime, n, Number.NaN);
    this.physical = grow(this.physical, n, Number.NaN);
    this.physicalTime = grow(this.physicalTime, n, Number.NaN);
    this.stagedValue = grow(this.stagedValue, n * STAGED, Number.NaN);
    this.stagedLine = grow(this.stagedLine, n * STAGED, Number.NaN);
    this.stagedMark = grow(this.stagedMark, n, -1);
    return slot;
  }

  /**
   * The port's staged scrape → its ring, stamped `timeMs` (the answer's stamp `stampMs` as taken), or
   * as much earlier or later as the port's own read instant lies from `stampMs`. True when a data counter
   * is below the previous reading (restart, clear, wrap): a counter reset.
   */
  commit(slot: number, answerTimeMs: number, stampMs = Number.NaN): boolean {
    const depth = this.depth;
    const at = slot * STAGED;
    const staged = this.stagedValue;
    const timeMs = portTimeMs(staged[at + READ_AT] as number, stampMs, answerTimeMs);
    const rate = staged[at + RATE] as number;
    if (!Number.isNaN(rate)) this.capacity[slot] = rate;
    const tick = staged[at + WAIT_TICK] as number;
    if (!Number.isNaN(tick)) this.waitTick[slot] = tick;
    const up = staged[at + LINK_UP] as number;
    if (!Number.isNaN(up)) {
      this.linkUp[slot] = up;
      this.linkUpTime[slot] = timeMs;
    }
    const physical = staged[at + PHYSICAL_STATE] as number;
    if (!Number.isNaN(physical)) {
      this.physical[slot] = physical;
      this.physicalTime[slot] = timeMs;
    }
    if (staged[at + COUNTER_SEEN] !== 1) return false;
    const reset = (this.count[slot] as number) > 0 && this.wentBackwards(slot, staged, at);
    const head = ((this.head[slot] as number) + 1) % depth;
    this.head[slot] = head;
    this.count[slot] = Math.min(depth, (this.count[slot] as number) + 1);
    const r = slot * depth + head;
    this.times[r] = timeMs;
    this.values.set(staged.subarray(at, at + RING_FIELDS), r * RING_FIELDS);
    // A scrape that carried error fields for the port makes them its newest error reading.
    let carried = false;
    for (let f = 0; f < ERROR_COUNT && !carried; f++)
      carried = !Number.isNaN(staged[at + ERROR_AT + f] as number);
    if (carried) {
      const e = slot * ERROR_COUNT;
      this.errorBefore.set(this.errorNow.subarray(e, e + ERROR_COUNT), e);
      this.errorBeforeTime[slot] = this.errorNowTime[slot] as number;
      this.errorNow.set(staged.subarray(at + ERROR_AT, at + FIELD_COUNT), e);
      this.errorNowTime[slot] = timeMs;
      this.errorRatesOf[slot] = Number.NaN;
    }
    return reset;
  }

  /** Whether a counter of the port (data or error; not the gauges) is below its previous reading. */
  private wentBackwards(slot: number, staged: Float64Array, at: number): boolean {
    const previous = (slot * this.depth + (this.head[slot] as number)) * RING_FIELDS;
    for (let f = 0; f < 2; f++) {
      const v = staged[at + f] as number;
      if (v < (this.values[previous + f] as number)) return true;
    }
    const e = slot * ERROR_COUNT;
    for (let f = 0; f < GAUGE_FROM; f++) {
      const v = staged[at + ERROR_AT + f] as number;
      if (v < (this.errorNow[e + f] as number)) return true;
    }
    return false;
  }

  /**
   * A port's counters as last read, cumulative since the device started or its counters were cleared (what
   * perfquery prints), by counter field; the gauges left out; its physical state if read since `physicalSinceMs`.
   * Null when the port was never read.
   */
  latest(key: string, physicalSinceMs = Number.NEGATIVE_INFINITY): PortTotals | null {
    const slot = this.slots.get(key);
    if (slot === undefined) return null;
    const physicalMs = this.physicalTime[slot] as number;
    const physicalState =
      physicalMs >= physicalSinceMs ? { code: this.physical[slot] as number, timeMs: physicalMs } : undefined;
    if (this.count[slot] === 0)
      return physicalState ? { timeMs: physicalMs, values: {}, physicalState } : null;
    const r = slot * this.depth + (this.head[slot] as number);
    const values: PortTotals['values'] = {};
    for (let f = 0; f < RING_FIELDS; f++) {
      const v = this.values[r * RING_FIELDS + f] as number;
      if (!Number.isNaN(v)) values[FIELDS[f] as CounterField] = v;
    }
    const e = slot * ERROR_COUNT;
    for (let f = 0; f < GAUGE_FROM; f++) {
      const v = this.errorNow[e + f] as number;
      if (!Number.isNaN(v)) values[FIELDS[ERROR_AT + f] as CounterField] = v;
    }
    return { timeMs: this.times[r] as number, values, ...(physicalState ? { physicalState } : {}) };
  }

  /**
   * Forgets the error rates kept, so the next `rates` makes them anew: the sampler bench's baseline,
   * which kept none, and its error readings coming every few scrapes.
   */
  forgetErrorRates(): void {
    this.errorRatesOf.fill(Number.NaN);
  }

  /** Rates over `windowMs` of every port read within `staleAfterMs`, and the newest reading's time. */
  rates(
    nowMs: number,
    staleAfterMs: number,
    windowMs: number,
    /** Error readings older than this are unknown (they are scraped less often on big fabrics). */
    errorStaleAfterMs = staleAfterMs,
  ): { ports: ReadonlyMap<string, PortRates>; newestMs: number } {
    const into = this.ratesInto();
    for (let slot = 0; slot < this.keys.length; slot++)
      this.rateSlot(slot, into, nowMs, staleAfterMs, windowMs, errorStaleAfterMs);
    return { ports: into.ports, newestMs: into.newestMs };
  }

  /**
   * `rates` in slices of the event loop (lib/sliced.ts). A scrape writes a port's reading in one go,
   * so its rates are from one reading or the next, never half of each.
   */
  async ratesSliced(
    nowMs: number,
    staleAfterMs: number,
    windowMs: number,
    errorStaleAfterMs = staleAfterMs,
  ): Promise<{ ports: ReadonlyMap<string, PortRates>; newestMs: number }> {
    const into = this.ratesInto();
    await slicedLoop(this.keys.length, (slot) =>
      this.rateSlot(slot, into, nowMs, staleAfterMs, windowMs, errorStaleAfterMs),
    );
    return { ports: into.ports, newestMs: into.newestMs };
  }

  private ratesInto(): RatesInto {
    return {
      ports: new SlotPorts(this.slots, this.keys, this.keys.length),
      newestMs: Number.NEGATIVE_INFINITY,
    };
  }

  private rateSlot(
    slot: number,
    into: RatesInto,
    nowMs: number,
    staleAfterMs: number,
    windowMs: number,
    errorStaleAfterMs: number,
  ): void {
    if (this.count[slot] === 0) return;
    const last = this.times[slot * this.depth + (this.head[slot] as number)] as number;
    into.newestMs = Math.max(into.newestMs, last);
    if (nowMs - last > staleAfterMs) return;
    const ports = into.ports;
    this.writeRates(slot, ports, windowMs, nowMs, staleAfterMs, errorStaleAfterMs);
    ports.tickSeconds[slot] = this.waitTick[slot] as number;
    const up = this.linkUp[slot] as number;
    ports.linkUp[slot] = up >= 0 && nowMs - (this.linkUpTime[slot] as number) <= staleAfterMs ? up : -1;
    ports.markRead(slot);
  }

  /**
   * A field's rate over the ring positions `first`..`last` (oldest first from `oldest`): a drop
   * anywhere in the window (restart, clear, wrap) makes the whole window a gap.
   */
  private ringRate(
    base: number,
    oldest: number,
    first: number,
    last: number,
    field: number,
    maxPerSecond: number | undefined,
  ): number | null {
    const depth = this.depth;
    const values = this.values;
    let previous = values[(base + ((oldest + first) % depth)) * RING_FIELDS + field] as number;
    const start = previous;
    for (let k = first + 1; k <= last; k++) {
      const v = values[(base + ((oldest + k) % depth)) * RING_FIELDS + field] as number;
      if (!(v >= previous)) return null;
      previous = v;
    }
    const seconds =
      ((this.times[base + ((oldest + last) % depth)] as number) -
        (this.times[base + ((oldest + first) % depth)] as number)) /
      1000;
    return counterRate(start, previous, seconds, maxPerSecond === undefined ? NO_LIMITS : { maxPerSecond });
  }

  /**
   * The port's rates over `windowMs` into the answer's columns (NaN unknown), and its error rates. Two readings farther
   * apart than the staleness limit have a gap between them: no rate spans it (a stall is unknown, never an average).
   */
  private writeRates(
    slot: number,
    into: SlotPorts,
    windowMs: number,
    nowMs: number,
    staleAfterMs: number,
    errorStaleAfterMs: number,
  ): void {
    const capacity = this.capacity[slot] as number;
    const maxBytesPerSecond =
      (Number.isNaN(capacity) ? NO_LINK_BYTES_PER_SECOND : capacity) * MAX_RATE_FACTOR;
    const maxPacketsPerSecond = maxBytesPerSecond / MIN_PACKET_BYTES;
    // XmitWait counts ticks of waiting: more than a second of them a second is a step, not congestion.
    const tick = this.waitTick[slot] as number;
    const maxWaitTicksPerSecond = tick > 0 ? MAX_RATE_FACTOR / tick : undefined;
    const depth = this.depth;
    const count = this.count[slot] as number;
    const base = slot * depth;
    // Ring positions of the readings, oldest first: the newest is at `head`.
    const oldest = (this.head[slot] as number) - count + 1 + depth;
    const last = count - 1;
    const times = this.times;
    const lastTime = times[base + ((oldest + last) % depth)] as number;
    let first = count - 2;
    let firstTime = first >= 0 ? (times[base + ((oldest + first) % depth)] as number) : Number.NaN;
    const rated = lastTime - firstTime <= staleAfterMs;
    while (first > 0 && lastTime - firstTime < windowMs) {
      const before = times[base + ((oldest + first - 1) % depth)] as number;
      if (firstTime - before > staleAfterMs) break;
      first--;
      firstTime = before;
    }
    // Error fields: the rate between the last two readings that carried them (a counter that went backwards between
    // them is a gap, never a spike); gauges as last read.
    let errors: ErrorRates | undefined;
    const readAt = this.errorNowTime[slot] as number;
    const fresh = readAt >= nowMs - errorStaleAfterMs;
    if (fresh && this.errorRatesOf[slot] === readAt) errors = this.errorRates[slot];
    else if (fresh) {
      const e = slot * ERROR_COUNT;
      const sinceMs = readAt - (this.errorBeforeTime[slot] as number);
      // Two error readings with a gap between them give no rate (the gauges are still read).
      const seconds = sinceMs <= errorStaleAfterMs ? sinceMs / 1000 : Number.NaN;
      for (let f = 0; f < ERROR_COUNT; f++) {
        const now = this.errorNow[e + f] as number;
        if (Number.isNaN(now)) continue;
        const value = f >= GAUGE_FROM ? now : counterRate(this.errorBefore[e + f] as number, now, seconds);
        if (value === null) continue;
        errors ??= {};
        errors[ERROR_FIELDS[f] as keyof ErrorRates] = value;
      }
      this.errorRates[slot] = errors;
      this.errorRatesOf[slot] = readAt;
    }
    const rate = (field: number, max: number | undefined) =>
      rated ? orNaN(this.ringRate(base, oldest, first, last, field, max)) : Number.NaN;
    into.transmitBytes[slot] = rate(0, maxBytesPerSecond);
    into.receiveBytes[slot] = rate(1, maxBytesPerSecond);
    into.transmitPackets[slot] = rate(2, maxPacketsPerSecond);
    into.receivePackets[slot] = rate(3, maxPacketsPerSecond);
    into.waitTicks[slot] = rate(4, maxWaitTicksPerSecond);
    into.errors[slot] = errors;
  }
}

/** null as a column keeps it: NaN. */
function orNaN(value: number | null): number {
  return value === null ? Number.NaN : value;
}

interface RatesInto {
  ports: SlotPorts;
  newestMs: number;
}
