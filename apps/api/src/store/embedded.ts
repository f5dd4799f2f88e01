import { counterRate } from './counter-rate.ts';
import { parseExposition } from './exposition.ts';
import {
  fabscopeMapping,
  fieldByMetric,
  linkUpOf,
  type SeriesMapping,
  type SeriesSample,
} from './series-mapping.ts';
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
  /** Series not seen for this long are dropped as stale. */
  staleAfterMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Whose series to read (FABSCOPE_METRICS_SOURCE); fabscope's own by default. */
  mapping?: SeriesMapping;
}

interface Reading {
  timeMs: number;
  values: Float64Array; // one per CounterField, NaN where absent
}

const FIELDS = Object.keys(PORT_COUNTERS) as CounterField[];
const FIELD_INDEX = new Map<CounterField, number>(FIELDS.map((f, i) => [f, i]));
const HISTORY = 16;

/** `host:port` of a target URL as written (URL parsing would lower-case the host name). */
function instanceOf(target: string): string {
  return target.match(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/?#]+)/i)?.[1] ?? target;
}
/** A data rate above this multiple of the link's rate is a spike, not traffic. */
const MAX_RATE_FACTOR = 1.5;

/**
 * The default store: scrapes the collectors itself, Prometheus-style, and keeps the last few
 * readings of every port in memory. No external server needed.
 */
export class EmbeddedStore implements MetricsStore {
  readonly kind = 'embedded';
  private readonly history = new Map<string, Reading[]>();
  private lastError: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  private readonly staleAfterMs: number;
  private readonly mapping: SeriesMapping;
  private readonly fieldOf: Map<string, CounterField>;
  private readonly wanted: Set<string>;
  private readonly rateMetrics: Set<string>;
  private readonly waitTickMetrics: Set<string>;
  private readonly linkUpMetrics: Set<string>;
  private readonly joinMetrics: Set<string>;
  /** Link rate (bytes/s) per port, when the exporter reports it. */
  private readonly capacity = new Map<string, number>();
  /** Length of one XmitWait tick (seconds) per port, when the exporter reports it. */
  private readonly waitTick = new Map<string, number>();
  /** Latest link state per port and when it was read; older than staleAfterMs is unknown. */
  private readonly linkUp = new Map<string, { up: boolean; timeMs: number }>();

  constructor(private readonly options: EmbeddedStoreOptions) {
    this.mapping = options.mapping ?? fabscopeMapping;
    this.fieldOf = fieldByMetric(this.mapping);
    this.rateMetrics = new Set(this.mapping.rateMetrics);
    this.waitTickMetrics = new Set(this.mapping.waitTickMetrics);
    this.linkUpMetrics = new Set(Object.keys(this.mapping.linkUpMetrics));
    this.joinMetrics = new Set(this.mapping.joinMetrics);
    this.wanted = new Set([
      ...this.fieldOf.keys(),
      ...this.rateMetrics,
      ...this.waitTickMetrics,
      ...this.linkUpMetrics,
      ...this.joinMetrics,
    ]);
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.scrapeIntervalMs ?? 1000;
    this.windowMs = options.rateWindowMs ?? 2000;
    this.staleAfterMs = options.staleAfterMs ?? 3 * this.intervalMs + 500;
  }

  start(): void {
    if (this.timer) return;
    void this.scrapeOnce();
    this.timer = setInterval(() => void this.scrapeOnce(), this.intervalMs);
  }

  /** One scrape of every target; concurrent calls share the one in flight. */
  scrapeOnce(): Promise<void> {
    this.inFlight ??= this.scrapeAll().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async scrapeAll(): Promise<void> {
    const errors: string[] = [];
    const seen = new Set<string>();
    await Promise.all(
      this.options.targets.map(async (target) => {
        try {
          const started = this.now();
          const response = await this.fetchImpl(target, { signal: AbortSignal.timeout(this.intervalMs * 5) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const text = await response.text();
          // The sample time is the start of the scrape, as Prometheus stamps it: collectors read
          // their source first thing, while the answer's size (megabytes on a big fabric) only
          // delays its end, by an amount that varies from scrape to scrape.
          const timeMs = started;
          this.ingest(text, timeMs, seen, instanceOf(target));
        } catch (error) {
          errors.push(`${target}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }),
    );
    this.lastError = errors.length > 0 ? `scrape failed: ${errors.join('; ')}` : null;
  }

  private ingest(text: string, timeMs: number, seen: Set<string>, instance: string): void {
    const byPort = new Map<string, Float64Array>();
    const parsed = parseExposition(text, this.wanted);
    const join: SeriesSample[] = [];
    for (const sample of parsed) if (this.joinMetrics.has(sample.name)) join.push({ ...sample, instance });
    const resolve = this.mapping.resolver(join);
    const linkUpSeen = new Set<string>();
    for (const sample of parsed) {
      const field = this.fieldOf.get(sample.name);
      const isRate = this.rateMetrics.has(sample.name);
      const isWaitTick = this.waitTickMetrics.has(sample.name);
      const isLinkUp = this.linkUpMetrics.has(sample.name);
      if (field === undefined && !isRate && !isWaitTick && !isLinkUp) continue;
      const key = resolve({ name: sample.name, labels: sample.labels, instance });
      if (key === null) continue;
      if (isRate) {
        if (sample.value > 0) this.capacity.set(key, sample.value);
        continue;
      }
      if (isWaitTick) {
        if (sample.value > 0 && Number.isFinite(sample.value)) this.waitTick.set(key, sample.value);
        continue;
      }
      if (isLinkUp) {
        const up = linkUpOf(this.mapping, sample.name, sample.value);
        // The first link-state series of a port in a scrape wins, as for counters.
        if (up !== null && !linkUpSeen.has(key)) {
          linkUpSeen.add(key);
          this.linkUp.set(key, { up, timeMs });
        }
        continue;
      }
      let values = byPort.get(key);
      if (!values) {
        values = new Float64Array(FIELDS.length).fill(Number.NaN);
        byPort.set(key, values);
      }
      const index = FIELD_INDEX.get(field as CounterField) as number;
      // The first series mapped to a port's counter wins (an InfiniBand port over an interface).
      if (Number.isNaN(values[index] as number)) values[index] = sample.value;
    }
    for (const [key, values] of byPort) {
      seen.add(key);
      let readings = this.history.get(key);
      if (!readings) {
        readings = [];
        this.history.set(key, readings);
      }
      readings.push({ timeMs, values });
      if (readings.length > HISTORY) readings.shift();
    }
  }

  async rates(): Promise<RatesSnapshot> {
    const nowMs = this.now();
    const ports = new Map<string, PortRates>();
    let newest = Number.NEGATIVE_INFINITY;
    for (const [key, readings] of this.history) {
      const last = readings[readings.length - 1];
      if (!last) continue;
      newest = Math.max(newest, last.timeMs);
      if (nowMs - last.timeMs > this.staleAfterMs) continue;
      const rates = this.portRates(readings, this.capacity.get(key));
      rates.transmitWaitTickSeconds = this.waitTick.get(key) ?? null;
      const state = this.linkUp.get(key);
      rates.linkUp = state && nowMs - state.timeMs <= this.staleAfterMs ? state.up : null;
      ports.set(key, rates);
    }
    const result: RatesSnapshot = {
      timeMs: nowMs,
      ok: this.lastError === null,
      lastSampleAgeSeconds: Number.isFinite(newest) ? Math.max(0, (nowMs - newest) / 1000) : null,
      ports,
    };
    if (this.lastError) result.error = this.lastError;
    return result;
  }

  private portRates(readings: Reading[], capacity: number | undefined): PortRates {
    const maxBytesPerSecond = capacity === undefined ? undefined : capacity * MAX_RATE_FACTOR;
    const last = readings[readings.length - 1] as Reading;
    let first = readings.length - 2;
    while (first > 0 && last.timeMs - (readings[first] as Reading).timeMs < this.windowMs) first--;
    const rate = (field: number): number | null => {
      if (first < 0) return null;
      // A drop anywhere in the window (restart, clear, wrap) makes the whole window a gap.
      for (let i = first + 1; i < readings.length; i++) {
        const a = (readings[i - 1] as Reading).values[field] as number;
        const b = (readings[i] as Reading).values[field] as number;
        if (!(b >= a)) return null;
      }
      const start = readings[first] as Reading;
      return counterRate(
        start.values[field] as number,
        last.values[field] as number,
        (last.timeMs - start.timeMs) / 1000,
        field <= 1 ? { maxPerSecond: maxBytesPerSecond } : {},
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
  }
}
