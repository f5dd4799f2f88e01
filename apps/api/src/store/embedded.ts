import type { EventLog } from '../events/event-log.ts';
import type { LinkIndex } from '../lib/utilization.ts';
import { counterRate } from './counter-rate.ts';
import { EmbeddedTimeQueries, type ScrapeDone } from './embedded-history.ts';
import { ExpositionScanner, LabelBlocks, labelsOfBlock } from './exposition-stream.ts';
import { type ScrapeTiming, scrapeTiming } from './scrape-timing.ts';
import { fabscopeMapping, linkUpOf, type SeriesMapping, type SeriesSample } from './series-mapping.ts';
import {
  type CounterField,
  type MetricsStore,
  PORT_COUNTERS,
  type PortRates,
  type RatesSnapshot,
} from './types.ts';

export interface EmbeddedStoreOptions {
  /** Collector `/metrics` URLs to scrape. */
  targets: string[];
  scrapeIntervalMs?: number;
  /** Rates span at least this much history (newest reading against the oldest within it). */
  rateWindowMs?: number;
  /** Series not seen for this long are dropped as stale. Default: from the interval and the scrape durations (scrape-timing.ts). */
  staleAfterMs?: number;
  /** A scrape is aborted after this long. Default: from the interval and the scrape durations. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Whose series to read (FABSCOPE_METRICS_SOURCE); fabscope's own by default. */
  mapping?: SeriesMapping;
  /** History kept for time travel (default 1 h; docs/history.md). */
  historySeconds?: number | undefined;
  /** Rate window of the history's frames (default 5 s, as the recording rules; at least rateWindowMs). */
  historyRateWindowMs?: number | undefined;
  /** Most bytes the history may take (default 512 MiB): fewer frames are kept beyond it. */
  historyMaxBytes?: number | undefined;
  /** Where link-state and counter-reset events seen in the samples go. */
  events?: EventLog | undefined;
}

/** What the last scrape of one target took (ms), for diagnostics and the benchmarks. */
export interface TargetScrapeStats {
  target: string;
  /** The URL fetched: the target, with `name[]` when the exporter selects families. */
  url: string;
  /** Request sent → response headers (a collector answers once it has read its source). */
  headersMs: number;
  /** Headers → end of the body, read and parsed as it streams in. */
  bodyMs: number;
  /** Parsed samples → port histories. */
  ingestMs: number;
  /** Samples of wanted metrics read. */
  samples: number;
  error?: string;
}

export interface ScrapeStats {
  /** Duration of the last completed scrape of every target, ms (null before the first). */
  lastDurationMs: number | null;
  /** Longest of the last few scrapes, ms: what the timeout and the stale limit are derived from. */
  recentDurationMs: number | null;
  timing: ScrapeTiming;
  /** Interval ticks skipped because the scrape before was still running. */
  skippedTicks: number;
  /** Ports with a history. */
  ports: number;
  targets: TargetScrapeStats[];
}

const FIELDS = Object.keys(PORT_COUNTERS) as CounterField[];
const FIELD_COUNT = FIELDS.length;
/** Staged values per label block and per port in a scrape: the counters, then these. */
const RATE = FIELD_COUNT;
const WAIT_TICK = FIELD_COUNT + 1;
const LINK_UP = FIELD_COUNT + 2;
/** 1 when any counter series of the port was in the scrape (a reading is kept even if all are NaN). */
const COUNTER_SEEN = FIELD_COUNT + 3;
const STAGED = FIELD_COUNT + 4;
/** Scrape durations remembered for the timing. */
const RECENT_SCRAPES = 5;
/** A data rate above this multiple of the link's rate is a spike, not traffic. */
const MAX_RATE_FACTOR = 1.5;
const NO_PORT = -1;
const NO_LIMITS = {};
const UNRESOLVED = -2;
/** As the recording rules' rate5s: the history's figures agree with Prometheus'. */
const HISTORY_RATE_WINDOW_MS = 5000;

/** `host:port` of a target URL as written (URL parsing would lower-case the host name). */
function instanceOf(target: string): string {
  return target.match(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/?#]+)/i)?.[1] ?? target;
}

function grow<T extends Float64Array | Int32Array | Int8Array>(array: T, size: number, fill: number): T {
  if (array.length >= size) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  bigger.set(array);
  bigger.fill(fill, array.length);
  return bigger;
}

/**
 * One scraped target's label blocks (a port's series share one): each block's labels are parsed
 * and resolved to a port once, then each sample is a map lookup. Staging arrays hold the scrape
 * in progress, so a scrape that fails half-way leaves nothing behind.
 */
class TargetState {
  readonly blocks = new LabelBlocks();
  readonly labels: Record<string, string>[] = [];
  readonly firstName: string[] = [];
  /** Resolved port slot per block (UNRESOLVED until asked, NO_PORT when it maps to none). */
  slot = new Int32Array(0);
  value = new Float64Array(0);
  line = new Float64Array(0);
  mark = new Int32Array(0);
  touched: number[] = [];
  token = 0;

  constructor(readonly instance: string) {}

  /** Makes room for the blocks the scanner numbered up to `b`, parsing their labels. */
  known(b: number, name: string, line: number): void {
    if (b < this.labels.length) return;
    for (let n = this.labels.length; n <= b; n++) {
      this.labels.push(labelsOfBlock(this.blocks.keys[n] as string, line));
      this.firstName.push(name);
    }
    this.slot = grow(this.slot, b + 1, UNRESOLVED);
    this.mark = grow(this.mark, b + 1, -1);
    this.value = grow(this.value, (b + 1) * STAGED, Number.NaN);
    this.line = grow(this.line, (b + 1) * STAGED, Number.NaN);
  }

  stage(b: number): number {
    const offset = b * STAGED;
    if (this.mark[b] !== this.token) {
      this.mark[b] = this.token;
      this.value.fill(Number.NaN, offset, offset + STAGED);
      this.touched.push(b);
    }
    return offset;
  }
}

/**
 * The default store: scrapes the collectors itself, Prometheus-style, and keeps the last few
 * readings of every port in memory. No external server needed.
 *
 * Built for fabric scale (165,888 ports, a 300 MB answer per scrape): the answer is parsed as it
 * streams in, only the families the mapping reads; label sets are parsed once per port; the
 * histories are typed arrays indexed by port slot, one ring of readings per port.
 */
export class EmbeddedStore implements MetricsStore {
  readonly kind = 'embedded';
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  /** Rate window of the history's frames (longer: what is kept should not carry scrape jitter). */
  private readonly historyWindowMs: number;
  private readonly mapping: SeriesMapping;
  /** The metrics read: counters, link rates, tick lengths, link states, join series. */
  private readonly names: string[];
  /** Per metric index: the staged slot it fills (a counter field, RATE, WAIT_TICK, LINK_UP) or -1. */
  private readonly roles: Int32Array;
  private readonly joins: Uint8Array;
  private readonly targets: TargetState[];
  /** The URL each target is fetched at (with `name[]` when the exporter selects families). */
  private readonly urls: string[];
  private token = 0;

  // Port slots: a ring of `depth` readings each (time, then the counters).
  private readonly depth: number;
  private readonly slots = new Map<string, number>();
  private readonly keys: string[] = [];
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
  // Per-port staging of one target's scrape (several label blocks may map to one port).
  private stagedValue = new Float64Array(0);
  private stagedLine = new Float64Array(0);
  private stagedMark = new Int32Array(0);

  private readonly recentDurations: number[] = [];
  private lastDurationMs: number | null = null;
  private skippedTicks = 0;
  private targetStats: TargetScrapeStats[] = [];
  private readonly scrapeListeners = new Set<(done: ScrapeDone) => void>();
  /** Ports whose counters went backwards in the scrape under way. */
  private resetPorts: string[] = [];
  private readonly histories = new Map<LinkIndex, EmbeddedTimeQueries>();

  constructor(private readonly options: EmbeddedStoreOptions) {
    this.mapping = options.mapping ?? fabscopeMapping;
    const roles = new Map<string, number>();
    for (const [field, i] of FIELDS.map((f, i) => [f, i] as const)) {
      for (const name of this.mapping.fields[field]) roles.set(name, i);
    }
    for (const name of this.mapping.rateMetrics) if (!roles.has(name)) roles.set(name, RATE);
    for (const name of this.mapping.waitTickMetrics) if (!roles.has(name)) roles.set(name, WAIT_TICK);
    for (const name of Object.keys(this.mapping.linkUpMetrics))
      if (!roles.has(name)) roles.set(name, LINK_UP);
    this.names = [...new Set([...roles.keys(), ...this.mapping.joinMetrics])];
    this.roles = Int32Array.from(this.names, (name) => roles.get(name) ?? -1);
    this.joins = Uint8Array.from(this.names, (name) => (this.mapping.joinMetrics.includes(name) ? 1 : 0));
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.scrapeIntervalMs ?? 1000;
    this.windowMs = options.rateWindowMs ?? 2000;
    // Enough readings to span the rate window, and one before it.
    this.historyWindowMs = Math.max(this.windowMs, options.historyRateWindowMs ?? HISTORY_RATE_WINDOW_MS);
    this.depth = Math.min(16, Math.max(3, Math.ceil(this.historyWindowMs / this.intervalMs) + 2));
    this.targets = options.targets.map((t) => new TargetState(instanceOf(t)));
    const query = this.names.map((n) => `name[]=${encodeURIComponent(n)}`).join('&');
    this.urls = options.targets.map((t) =>
      this.mapping.selectsByName ? `${t}${t.includes('?') ? '&' : '?'}${query}` : t,
    );
  }

  start(): void {
    if (this.timer) return;
    void this.scrapeOnce();
    this.timer = setInterval(() => {
      // A scrape longer than the interval makes the store skip ticks, never pile scrapes up.
      if (this.inFlight) this.skippedTicks++;
      else void this.scrapeOnce();
    }, this.intervalMs);
  }

  /** One scrape of every target; concurrent calls share the one in flight. */
  scrapeOnce(): Promise<void> {
    this.inFlight ??= this.scrapeAll().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The timeout and stale limit now in force, from the interval and the recent scrape durations. */
  timing(): ScrapeTiming {
    const recent = this.recentDurations.length > 0 ? Math.max(...this.recentDurations) : null;
    return scrapeTiming(this.intervalMs, recent, {
      timeoutMs: this.options.timeoutMs,
      staleAfterMs: this.options.staleAfterMs,
    });
  }

  stats(): ScrapeStats {
    return {
      lastDurationMs: this.lastDurationMs,
      recentDurationMs: this.recentDurations.length > 0 ? Math.max(...this.recentDurations) : null,
      timing: this.timing(),
      skippedTicks: this.skippedTicks,
      ports: this.keys.length,
      targets: this.targetStats,
    };
  }

  private async scrapeAll(): Promise<void> {
    const errors: string[] = [];
    const started = this.now();
    const { timeoutMs } = this.timing();
    const stats = await Promise.all(
      this.options.targets.map(async (target, i) => {
        const url = this.urls[i] as string;
        const stats: TargetScrapeStats = { target, url, headersMs: 0, bodyMs: 0, ingestMs: 0, samples: 0 };
        try {
          await this.scrapeTarget(url, this.targets[i] as TargetState, timeoutMs, stats);
        } catch (error) {
          stats.error = error instanceof Error ? error.message : String(error);
          errors.push(`${target}: ${stats.error}`);
        }
        return stats;
      }),
    );
    this.targetStats = stats;
    this.lastDurationMs = this.now() - started;
    this.recentDurations.push(this.lastDurationMs);
    if (this.recentDurations.length > RECENT_SCRAPES) this.recentDurations.shift();
    this.lastError = errors.length > 0 ? `scrape failed: ${errors.join('; ')}` : null;
    const done: ScrapeDone = { timeMs: started, resetPorts: this.resetPorts };
    this.resetPorts = [];
    for (const listener of this.scrapeListeners) listener(done);
  }

  /** Calls `listener` after every completed scrape. */
  onScrape(listener: (done: ScrapeDone) => void): () => void {
    this.scrapeListeners.add(listener);
    return () => this.scrapeListeners.delete(listener);
  }

  /** Instants and ranges from the in-memory history of this fabric's link directions. */
  timeQueries(index: LinkIndex): EmbeddedTimeQueries {
    let queries = this.histories.get(index);
    if (!queries) {
      queries = new EmbeddedTimeQueries(
        {
          onScrape: (l) => this.onScrape(l),
          rates: () => this.rates(undefined, this.historyWindowMs),
          staleAfterMs: () => this.timing().staleAfterMs,
        },
        index,
        {
          intervalMs: this.intervalMs,
          historySeconds: this.options.historySeconds,
          historyMaxBytes: this.options.historyMaxBytes,
          events: this.options.events,
        },
      );
      this.histories.set(index, queries);
    }
    return queries;
  }

  private async scrapeTarget(
    url: string,
    state: TargetState,
    timeoutMs: number,
    stats: TargetScrapeStats,
  ): Promise<void> {
    // The sample time is the start of the scrape, as Prometheus stamps it: collectors read
    // their source first thing, while the answer's size (megabytes on a big fabric) only
    // delays its end, by an amount that varies from scrape to scrape.
    const timeMs = this.now();
    let t = performance.now();
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    stats.headersMs = performance.now() - t;
    t = performance.now();
    state.token = ++this.token;
    state.touched = [];
    const join: SeriesSample[] = [];
    const { roles, joins, mapping } = this;
    const scanner: ExpositionScanner = new ExpositionScanner(
      this.names,
      (metric, b, value, line) => {
        stats.samples++;
        const name = scanner.nameOf(metric);
        state.known(b, name, line);
        if (joins[metric] === 1)
          join.push({ name, labels: state.labels[b] as Record<string, string>, instance: state.instance });
        const role = roles[metric] as number;
        if (role < 0) return;
        const at = state.stage(b) + role;
        const staged = state.value;
        if (role < FIELD_COUNT) {
          // The first series of a port's counter wins (an InfiniBand port over an interface).
          staged[COUNTER_SEEN - role + at] = 1;
          if (Number.isNaN(staged[at] as number)) {
            staged[at] = value;
            state.line[at] = line;
          }
        } else if (role === LINK_UP) {
          const up = linkUpOf(mapping, name, value);
          if (up !== null && Number.isNaN(staged[at] as number)) {
            staged[at] = up ? 1 : 0;
            state.line[at] = line;
          }
        } else if (value > 0 && Number.isFinite(value)) {
          // Link rate and tick length: the last valid one wins.
          staged[at] = value;
          state.line[at] = line;
        }
      },
      state.blocks,
    );
    const body = response.body as AsyncIterable<Uint8Array> | null;
    if (body) for await (const chunk of body) scanner.push(chunk);
    scanner.end();
    stats.bodyMs = performance.now() - t;
    t = performance.now();
    this.commit(state, join, timeMs);
    stats.ingestMs = performance.now() - t;
    // Label sets that are gone (a port renamed, a device removed) are forgotten now and then.
    if (state.labels.length > 2 * state.touched.length + 1024) {
      this.targets[this.targets.indexOf(state)] = new TargetState(state.instance);
    }
  }

  /** One target's staged scrape → the ports' histories, stamped `timeMs`. */
  private commit(state: TargetState, join: SeriesSample[], timeMs: number): void {
    // A mapping without join series resolves a label set the same way every time: once is enough.
    const cached = this.mapping.joinMetrics.length === 0;
    let resolve: ((s: SeriesSample) => string | null) | undefined;
    const ports: number[] = [];
    const token = state.token;
    for (const b of state.touched) {
      let slot = cached ? (state.slot[b] as number) : UNRESOLVED;
      if (slot === UNRESOLVED) {
        resolve ??= this.mapping.resolver(join);
        const key = resolve({
          name: state.firstName[b] as string,
          labels: state.labels[b] as Record<string, string>,
          instance: state.instance,
        });
        slot = key === null ? NO_PORT : this.slotOf(key);
        if (cached) state.slot[b] = slot;
      }
      if (slot === NO_PORT) continue;
      const to = slot * STAGED;
      if (this.stagedMark[slot] !== token) {
        this.stagedMark[slot] = token;
        this.stagedValue.fill(Number.NaN, to, to + STAGED);
        ports.push(slot);
      }
      const from = b * STAGED;
      for (let r = 0; r < STAGED; r++) {
        const v = state.value[from + r] as number;
        if (Number.isNaN(v)) continue;
        const line = state.line[from + r] as number;
        const current = this.stagedLine[to + r] as number;
        const empty = Number.isNaN(this.stagedValue[to + r] as number);
        // In line order, as one pass over the text: counters and link state first wins, the rest last wins.
        const wins = empty || (r === RATE || r === WAIT_TICK ? line > current : line < current);
        if (wins) {
          this.stagedValue[to + r] = v;
          this.stagedLine[to + r] = line;
        }
      }
    }
    const depth = this.depth;
    for (const slot of ports) {
      const at = slot * STAGED;
      const staged = this.stagedValue;
      const rate = staged[at + RATE] as number;
      if (!Number.isNaN(rate)) this.capacity[slot] = rate;
      const tick = staged[at + WAIT_TICK] as number;
      if (!Number.isNaN(tick)) this.waitTick[slot] = tick;
      const up = staged[at + LINK_UP] as number;
      if (!Number.isNaN(up)) {
        this.linkUp[slot] = up;
        this.linkUpTime[slot] = timeMs;
      }
      if (staged[at + COUNTER_SEEN] !== 1) continue;
      if ((this.count[slot] as number) > 0 && this.wentBackwards(slot, staged, at))
        this.resetPorts.push(this.keys[slot] as string);
      const head = ((this.head[slot] as number) + 1) % depth;
      this.head[slot] = head;
      this.count[slot] = Math.min(depth, (this.count[slot] as number) + 1);
      const r = slot * depth + head;
      this.times[r] = timeMs;
      this.values.set(staged.subarray(at, at + FIELD_COUNT), r * FIELD_COUNT);
    }
  }

  /** Whether a data counter of the port is below its previous reading (restart, clear, wrap). */
  private wentBackwards(slot: number, staged: Float64Array, at: number): boolean {
    const previous = (slot * this.depth + (this.head[slot] as number)) * FIELD_COUNT;
    for (let f = 0; f < 2; f++) {
      const v = staged[at + f] as number;
      if (v < (this.values[previous + f] as number)) return true;
    }
    return false;
  }

  private slotOf(key: string): number {
    let slot = this.slots.get(key);
    if (slot !== undefined) return slot;
    slot = this.keys.length;
    this.keys.push(key);
    this.slots.set(key, slot);
    const n = slot + 1;
    this.times = grow(this.times, n * this.depth, Number.NaN);
    this.values = grow(this.values, n * this.depth * FIELD_COUNT, Number.NaN);
    this.head = grow(this.head, n, -1);
    this.count = grow(this.count, n, 0);
    this.capacity = grow(this.capacity, n, Number.NaN);
    this.waitTick = grow(this.waitTick, n, Number.NaN);
    this.linkUp = grow(this.linkUp, n, -1);
    this.linkUpTime = grow(this.linkUpTime, n, Number.NaN);
    this.stagedValue = grow(this.stagedValue, n * STAGED, Number.NaN);
    this.stagedLine = grow(this.stagedLine, n * STAGED, Number.NaN);
    this.stagedMark = grow(this.stagedMark, n, -1);
    return slot;
  }

  /** Rates of every fresh port over `windowMs` (default: the live window, rateWindowMs). */
  async rates(_signal?: AbortSignal, windowMs = this.windowMs): Promise<RatesSnapshot> {
    const nowMs = this.now();
    const { staleAfterMs } = this.timing();
    const ports = new Map<string, PortRates>();
    let newest = Number.NEGATIVE_INFINITY;
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.count[slot] === 0) continue;
      const last = this.times[slot * this.depth + (this.head[slot] as number)] as number;
      newest = Math.max(newest, last);
      if (nowMs - last > staleAfterMs) continue;
      const rates = this.portRates(slot, windowMs);
      const tick = this.waitTick[slot] as number;
      rates.transmitWaitTickSeconds = Number.isNaN(tick) ? null : tick;
      const up = this.linkUp[slot] as number;
      rates.linkUp = up >= 0 && nowMs - (this.linkUpTime[slot] as number) <= staleAfterMs ? up === 1 : null;
      ports.set(this.keys[slot] as string, rates);
    }
    const result: RatesSnapshot = {
      timeMs: nowMs,
      ok: this.lastError === null,
      lastSampleAgeSeconds: Number.isFinite(newest) ? Math.max(0, (nowMs - newest) / 1000) : null,
      staleAfterSeconds: staleAfterMs / 1000,
      ports,
    };
    if (this.lastError) result.error = this.lastError;
    return result;
  }

  private portRates(slot: number, windowMs: number): PortRates {
    const capacity = this.capacity[slot] as number;
    const maxBytesPerSecond = Number.isNaN(capacity) ? undefined : capacity * MAX_RATE_FACTOR;
    const depth = this.depth;
    const count = this.count[slot] as number;
    const base = slot * depth;
    // Ring positions of the readings, oldest first: the newest is at `head`.
    const oldest = (this.head[slot] as number) - count + 1 + depth;
    const last = count - 1;
    const lastTime = this.times[base + ((oldest + last) % depth)] as number;
    let first = count - 2;
    while (first > 0 && lastTime - (this.times[base + ((oldest + first) % depth)] as number) < windowMs)
      first--;
    const rate = (field: number): number | null => {
      if (first < 0) return null;
      // A drop anywhere in the window (restart, clear, wrap) makes the whole window a gap.
      let previous = this.values[(base + ((oldest + first) % depth)) * FIELD_COUNT + field] as number;
      const start = previous;
      for (let k = first + 1; k <= last; k++) {
        const v = this.values[(base + ((oldest + k) % depth)) * FIELD_COUNT + field] as number;
        if (!(v >= previous)) return null;
        previous = v;
      }
      const seconds = (lastTime - (this.times[base + ((oldest + first) % depth)] as number)) / 1000;
      return counterRate(
        start,
        previous,
        seconds,
        field <= 1 ? { maxPerSecond: maxBytesPerSecond } : NO_LIMITS,
      );
    };
    return {
      transmitBytesPerSecond: rate(0),
      receiveBytesPerSecond: rate(1),
      transmitPacketsPerSecond: rate(2),
      receivePacketsPerSecond: rate(3),
      transmitWaitTicksPerSecond: rate(4),
      transmitWaitTickSeconds: null,
      linkUp: null,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    for (const history of this.histories.values()) history.close();
  }
}
