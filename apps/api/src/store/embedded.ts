import type { EventLog } from '../lib/fabric-event.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import { readBodyInSlices } from '../lib/read-body.ts';
import { slicedLoop } from '../lib/sliced.ts';
import { type ScrapeTiming, scrapeTiming } from '../lib/staleness.ts';
import { ARROW_STREAM_MEDIA_TYPE, type ArrowScrape, readArrowScrape } from './arrow-scrape.ts';
import { EmbeddedTimeQueries, type ScrapeDone } from './embedded-history.ts';
import { ExpositionScanner } from './exposition-stream.ts';
import type { FabricHistoryDir } from './history-file/fabric-dir.ts';
import { PortReadings } from './port-readings.ts';
import {
  COUNTER_SEEN,
  FIELD_COUNT,
  FIELDS,
  instanceOf,
  LINK_UP,
  NO_PORT,
  RATE,
  STAGED,
  TargetState,
  UNRESOLVED,
  WAIT_TICK,
} from './scrape-staging.ts';
import { fabscopeMapping, linkUpOf, type SeriesMapping, type SeriesSample } from './series-mapping.ts';
import { ERROR_FIELDS, type MetricsStore, portKey, type RatesSnapshot } from './types.ts';

export interface EmbeddedStoreOptions {
  /** Collector `/metrics` URLs to scrape. */
  targets: string[];
  scrapeIntervalMs?: number;
  /** Rates span at least this much history (newest reading against the oldest within it). */
  rateWindowMs?: number;
  /** Series not seen for this long are dropped as stale. Default: from the interval and the scrape durations (lib/staleness.ts). */
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
  /** The history directory of the fabric whose history is kept on disk (embedded-history.ts). */
  historyDir?: FabricHistoryDir | undefined;
  /**
   * How often the error counters (ERROR_COUNTERS, PORT_GAUGES) are asked for, from a fabric agent
   * that selects families: every scrape at 1 s, else every max(30 s, 3 intervals), as the demo's
   * Prometheus slow job (docs/scaling.md): at 165,888 ports they triple the answer.
   */
  errorIntervalMs?: number | undefined;
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
  /** The form the target answered in: exposition text, or Arrow (a fabscope collector asked for it). */
  format?: 'text' | 'arrow';
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

/**
 * The earliest second scrape after start (start()): rates over a shorter span would carry the
 * counters' millisecond stamps as noise (1 ms in 1 s is 0.1 %).
 */
const SECOND_SCRAPE_AFTER_MS = 1000;

/** Scrape durations remembered for the timing. */
const RECENT_SCRAPES = 5;

/** Prometheus' text exposition format, the form every exporter answers. */
const EXPOSITION_MEDIA_TYPE = 'text/plain;version=0.0.4';

/** How far a collector's own read time may lie from the scrape's start and still be taken. */
const STAMP_TOLERANCE_MS = 10_000;

/** Whether a fetch failed on a kept-alive connection the server had closed meanwhile, before any answer. */
function closedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return error instanceof TypeError && (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET');
}

/**
 * A scrape's sample time: the collector's stamp (when it read its counters) where it gave one
 * that fits the scrape — never after it ended — else the scrape's start.
 */
export function sampleTimeMs(stampedMs: number | null, startedMs: number, endedMs: number): number {
  if (stampedMs === null || Math.abs(stampedMs - startedMs) > STAMP_TOLERANCE_MS) return startedMs;
  return Math.min(stampedMs, endedMs);
}
/**
 * Whether rates over any window up to `windowMs` are those of the newest reading and the one
 * before, scraping every `intervalMs`: when the interval is at least twice the window (a scrape
 * late or early by up to half an interval still leaves the one before outside the window).
 */
export function windowsAgree(intervalMs: number, windowMs: number): boolean {
  return intervalMs >= 2 * windowMs;
}

/** As the recording rules' rate5s: the history's figures agree with Prometheus'. */
const HISTORY_RATE_WINDOW_MS = 5000;

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
  private secondScrape: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  /** Aborts the scrape in flight on close: at fat-tree-27648 one streams for seconds. */
  private readonly closing = new AbortController();
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
  /** Metric name → its staged slot, for the Arrow form's columns (named as the families). */
  private readonly roleByName: Map<string, number>;
  private readonly targets: TargetState[];
  /** Per target, the port slots of the rows of its last Arrow answer and the keys they were for. */
  private readonly arrowRows: ({
    keys: string | null;
    guids: string[];
    ports: Int32Array;
    slots: Int32Array;
  } | null)[];
  /** The Arrow staging under way (one target's at a time). */
  private arrowStaging: Promise<void> = Promise.resolve();
  /** The URL each target is fetched at (with `name[]` when the exporter selects families). */
  private readonly urls: string[];
  /** The same without the error families, for the scrapes between two error scrapes. */
  private readonly fastUrls: string[];
  private readonly errorIntervalMs: number;
  private lastErrorScrapeMs = Number.NEGATIVE_INFINITY;
  private token = 0;

  /** Every port's last readings (a ring per port) and the staging of the scrape under way. */
  private readonly readings: PortReadings;

  private readonly recentDurations: number[] = [];
  private lastDurationMs: number | null = null;
  private skippedTicks = 0;
  private targetStats: TargetScrapeStats[] = [];
  private readonly scrapeListeners = new Set<(done: ScrapeDone) => void>();
  /** Ports whose counters went backwards in the scrape under way. */
  private resetPorts: string[] = [];
  private readonly histories = new Map<LinkIndex, EmbeddedTimeQueries>();
  /** Scrapes completed: a snapshot is shared only within one. */
  private scrapes = 0;
  /** The live rates asked for since the latest scrape (computed in slices: a promise of them). */
  private lastLive: { scrape: number; startedMs: number; snapshot: Promise<RatesSnapshot> } | null = null;

  constructor(private readonly options: EmbeddedStoreOptions) {
    this.mapping = options.mapping ?? fabscopeMapping;
    const roles = new Map<string, number>();
    for (const [field, i] of FIELDS.map((f, i) => [f, i] as const)) {
      for (const name of this.mapping.fields[field] ?? []) roles.set(name, i);
    }
    for (const name of this.mapping.rateMetrics) if (!roles.has(name)) roles.set(name, RATE);
    for (const name of this.mapping.waitTickMetrics) if (!roles.has(name)) roles.set(name, WAIT_TICK);
    for (const name of Object.keys(this.mapping.linkUpMetrics))
      if (!roles.has(name)) roles.set(name, LINK_UP);
    this.names = [...new Set([...roles.keys(), ...this.mapping.joinMetrics])];
    this.roles = Int32Array.from(this.names, (name) => roles.get(name) ?? -1);
    this.joins = Uint8Array.from(this.names, (name) => (this.mapping.joinMetrics.includes(name) ? 1 : 0));
    this.roleByName = roles;
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.scrapeIntervalMs ?? 1000;
    this.windowMs = options.rateWindowMs ?? 2000;
    // Enough readings to span the rate window, and one before it.
    this.historyWindowMs = Math.max(this.windowMs, options.historyRateWindowMs ?? HISTORY_RATE_WINDOW_MS);
    this.readings = new PortReadings(
      Math.min(16, Math.max(3, Math.ceil(this.historyWindowMs / this.intervalMs) + 2)),
    );
    this.targets = options.targets.map((t) => new TargetState(instanceOf(t)));
    this.arrowRows = options.targets.map(() => null);
    const urlsOf = (names: readonly string[]) => {
      const query = names.map((n) => `name[]=${encodeURIComponent(n)}`).join('&');
      return options.targets.map((t) =>
        this.mapping.selectsByName ? `${t}${t.includes('?') ? '&' : '?'}${query}` : t,
      );
    };
    this.urls = urlsOf(this.names);
    const errorNames = new Set<string>(ERROR_FIELDS.flatMap((f) => [...(this.mapping.fields[f] ?? [])]));
    this.fastUrls = urlsOf(this.names.filter((n) => !errorNames.has(n)));
    this.errorIntervalMs =
      options.errorIntervalMs ?? (this.intervalMs <= 1000 ? 0 : Math.max(30_000, 3 * this.intervalMs));
  }

  /**
   * Scrapes now, every interval after. Rates need two readings: at an interval above
   * SECOND_SCRAPE_AFTER_MS the second follows the first as soon as it ends (and at least that
   * long after it started) instead of an interval later. Where the error families are read apart
   * (errorIntervalMs), these two leave them out, to the next regular scrape: at fat-tree-27648
   * (10 s) the first rates came 24 s after start, behind a first scrape of every family (the
   * error counters are most of the answer); now they come after two scrapes of the data.
   */
  start(): void {
    if (this.timer) return;
    const startedMs = this.now();
    const first = this.scrapeOnce(false);
    if (this.intervalMs > SECOND_SCRAPE_AFTER_MS) {
      void first.then(() => {
        if (!this.timer) return;
        this.secondScrape = setTimeout(
          () => {
            if (this.timer && !this.inFlight) void this.scrapeOnce(false);
          },
          Math.max(0, startedMs + SECOND_SCRAPE_AFTER_MS - this.now()),
        );
      });
    }
    this.timer = setInterval(() => {
      // A scrape longer than the interval makes the store skip ticks, never pile scrapes up.
      if (this.inFlight) this.skippedTicks++;
      else void this.scrapeOnce();
    }, this.intervalMs);
  }

  /**
   * One scrape of every target; concurrent calls share the one in flight. `errorsDue` false
   * leaves out the error families whether or not their time has come.
   */
  scrapeOnce(errorsDue = true): Promise<void> {
    this.inFlight ??= this.scrapeAll(errorsDue).finally(() => {
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
      ports: this.readings.keys.length,
      targets: this.targetStats,
    };
  }

  private async scrapeAll(errorsDue: boolean): Promise<void> {
    const errors: string[] = [];
    const started = this.now();
    const { timeoutMs } = this.timing();
    const withErrors =
      (errorsDue || this.errorIntervalMs === 0) && started - this.lastErrorScrapeMs >= this.errorIntervalMs;
    if (withErrors) this.lastErrorScrapeMs = started;
    const stats = await Promise.all(
      this.options.targets.map(async (target, i) => {
        const url = (withErrors ? this.urls : this.fastUrls)[i] as string;
        const stats: TargetScrapeStats = { target, url, headersMs: 0, bodyMs: 0, ingestMs: 0, samples: 0 };
        try {
          await this.scrapeTarget(url, i, timeoutMs, stats);
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
    this.scrapes++;
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
          // The live rates when both windows pick the newest reading and the one before.
          rates: () =>
            windowsAgree(this.intervalMs, this.historyWindowMs)
              ? this.rates()
              : this.rates(undefined, this.historyWindowMs),
          staleAfterMs: () => this.timing().staleAfterMs,
        },
        index,
        {
          intervalMs: this.intervalMs,
          historySeconds: this.options.historySeconds,
          historyMaxBytes: this.options.historyMaxBytes,
          events: this.options.events,
          // Only the fabric the directory was opened for is kept there.
          historyDir: this.options.historyDir?.index === index ? this.options.historyDir : undefined,
        },
      );
      this.histories.set(index, queries);
    }
    return queries;
  }

  private async scrapeTarget(
    url: string,
    target: number,
    timeoutMs: number,
    stats: TargetScrapeStats,
  ): Promise<void> {
    const state = this.targets[target] as TargetState;
    // The sample time is the time the collector read its counters where it says so (their
    // timestamps, docs/metrics.md), else the start of the scrape, as Prometheus stamps it:
    // collectors read their source first thing, while the answer's size (megabytes on a big
    // fabric) only delays its end, by an amount that varies from scrape to scrape.
    const startedMs = this.now();
    let t = performance.now();
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(timeoutMs)]);
    const ask = () =>
      this.fetchImpl(url, {
        signal,
        // fabscope's collector answers the port families it is asked for in columns (arrow-scrape.ts):
        // at fat-tree-27648 an error scrape is ~630 MB of text to parse, 8 bytes a value this way.
        headers: this.mapping.selectsByName
          ? { accept: `${ARROW_STREAM_MEDIA_TYPE}, ${EXPOSITION_MEDIA_TYPE};q=0.5` }
          : { accept: EXPOSITION_MEDIA_TYPE },
      });
    // A kept-alive connection the collector closed while this loop was busy (longer than its
    // keep-alive timeout, e.g. ingesting another target's answer) fails at once, before any
    // answer: asking again on a new connection is safe (a GET).
    const response = await ask().catch((error: unknown) => {
      if (signal.aborted || !closedConnection(error)) throw error;
      return ask();
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    stats.headersMs = performance.now() - t;
    t = performance.now();
    if ((response.headers.get('content-type') ?? '').startsWith(ARROW_STREAM_MEDIA_TYPE)) {
      stats.format = 'arrow';
      const scrape = readArrowScrape(await readBodyInSlices(response));
      stats.bodyMs = performance.now() - t;
      t = performance.now();
      stats.samples = await this.commitArrow(
        target,
        scrape,
        sampleTimeMs(scrape.countersReadAtMs, startedMs, this.now()),
      );
      stats.ingestMs = performance.now() - t;
      return;
    }
    stats.format = 'text';
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
    this.commit(state, join, sampleTimeMs(scanner.latestTimestampMs, startedMs, this.now()));
    stats.ingestMs = performance.now() - t;
    // Label sets that are gone (a port renamed, a device removed) are forgotten now and then.
    if (state.labels.length > 2 * state.touched.length + 1024) {
      this.targets[this.targets.indexOf(state)] = new TargetState(state.instance);
    }
  }

  /**
   * One target's Arrow answer → the ports' histories, stamped `timeMs`, staged as the text's
   * samples are (commit): a counter's first value and the link state's, a link rate's or a tick
   * length's last positive one. Returns the values read.
   */
  private commitArrow(target: number, scrape: ArrowScrape, timeMs: number): Promise<number> {
    // One target's staging at a time: the staging arrays are shared, and a staging waits for turns.
    const done = this.arrowStaging.then(() => this.stageAndCommitArrow(target, scrape, timeMs));
    this.arrowStaging = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  private async stageAndCommitArrow(target: number, scrape: ArrowScrape, timeMs: number): Promise<number> {
    const slots = this.arrowSlots(target, scrape);
    const token = ++this.token;
    const readings = this.readings;
    const ports: number[] = [];
    for (let r = 0; r < scrape.rows; r++) {
      const slot = slots[r] as number;
      if (readings.stagedMark[slot] === token) continue;
      readings.stagedMark[slot] = token;
      readings.stagedValue.fill(Number.NaN, slot * STAGED, (slot + 1) * STAGED);
      ports.push(slot);
    }
    const columns: { name: string; values: Float64Array; role: number }[] = [];
    for (const [name, values] of scrape.families) {
      const role = this.roleByName.get(name);
      if (role !== undefined) columns.push({ name, values, role });
    }
    const staged = readings.stagedValue;
    let samples = 0;
    // Column by column, a turn of the loop between them (32 families × 165,888 rows at
    // fat-tree-27648, ~1 ms a column); the rates read the rings only, which change below, port by port.
    await slicedLoop(columns.length, (k) => {
      const { name, values, role } = columns[k] as (typeof columns)[number];
      for (let r = 0; r < scrape.rows; r++) {
        const value = values[r] as number;
        if (Number.isNaN(value)) continue;
        samples++;
        const offset = (slots[r] as number) * STAGED;
        const at = offset + role;
        if (role < FIELD_COUNT) {
          staged[offset + COUNTER_SEEN] = 1;
          if (Number.isNaN(staged[at] as number)) staged[at] = value;
        } else if (role === LINK_UP) {
          const up = linkUpOf(this.mapping, name, value);
          if (up !== null && Number.isNaN(staged[at] as number)) staged[at] = up ? 1 : 0;
        } else if (value > 0 && Number.isFinite(value)) {
          staged[at] = value;
        }
      }
    });
    // Each port's staged reading lands in its ring at once, so its rates are from one reading or
    // the next (as the rates read in slices take them); the ports in slices of the loop (165,888
    // rings written held it ~70 ms in one piece at fat-tree-27648).
    await slicedLoop(ports.length, (i) => {
      const slot = ports[i] as number;
      if (readings.commit(slot, timeMs)) this.resetPorts.push(readings.keys[slot] as string);
    });
    return samples;
  }

  /**
   * The port slot of each row of an Arrow answer: those of the target's answer before when it
   * names the same key columns, or has the same keys row for row.
   */
  private arrowSlots(target: number, scrape: ArrowScrape): Int32Array {
    const kept = this.arrowRows[target];
    const { rows } = scrape;
    if (kept && kept.slots.length === rows && scrape.keys !== null && kept.keys === scrape.keys)
      return kept.slots;
    const { nodeGuid, port } = scrape.keyColumns();
    if (kept && kept.guids.length === rows) {
      let same = true;
      for (let r = 0; r < rows && same; r++)
        same = kept.guids[r] === nodeGuid[r] && kept.ports[r] === port[r];
      if (same) {
        kept.keys = scrape.keys;
        return kept.slots;
      }
    }
    const guids = Array.from(nodeGuid);
    const ports = Int32Array.from(port);
    const slots = Int32Array.from({ length: rows }, (_, r) =>
      this.readings.slotOf(portKey(guids[r] as string, ports[r] as number)),
    );
    this.arrowRows[target] = { keys: scrape.keys, guids, ports, slots };
    return slots;
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
        slot = key === null ? NO_PORT : this.readings.slotOf(key);
        if (cached) state.slot[b] = slot;
      }
      if (slot === NO_PORT) continue;
      const to = slot * STAGED;
      if (this.readings.stagedMark[slot] !== token) {
        this.readings.stagedMark[slot] = token;
        this.readings.stagedValue.fill(Number.NaN, to, to + STAGED);
        ports.push(slot);
      }
      const from = b * STAGED;
      for (let r = 0; r < STAGED; r++) {
        const v = state.value[from + r] as number;
        if (Number.isNaN(v)) continue;
        const line = state.line[from + r] as number;
        const current = this.readings.stagedLine[to + r] as number;
        const empty = Number.isNaN(this.readings.stagedValue[to + r] as number);
        // In line order, as one pass over the text: counters and link state first wins, the rest last wins.
        const wins = empty || (r === RATE || r === WAIT_TICK ? line > current : line < current);
        if (wins) {
          this.readings.stagedValue[to + r] = v;
          this.readings.stagedLine[to + r] = line;
        }
      }
    }
    for (const slot of ports) {
      if (this.readings.commit(slot, timeMs)) this.resetPorts.push(this.readings.keys[slot] as string);
    }
  }

  /**
   * Rates of every fresh port over `windowMs` (default: the live window, rateWindowMs). The live
   * window's rates are computed once per scrape: whoever asks first (the sampler's tick, or the
   * history when its window picks the same readings, windowsAgree: 10 s at fat-tree-27648 against
   * 5 s) starts them, and the others of that scrape share the promise, and with it one frame
   * (lib/frame.ts `frameForSliced`) — each computed them apart before, ~0.6 s a tick twice.
   */
  rates(_signal?: AbortSignal, windowMs = this.windowMs): Promise<RatesSnapshot> {
    const live = windowMs === this.windowMs;
    const kept = this.lastLive;
    // Read for this scrape, not long before (ports' freshness is decided when rates are read).
    if (
      live &&
      kept !== null &&
      kept.scrape === this.scrapes &&
      this.now() - kept.startedMs <= this.intervalMs / 2
    )
      return kept.snapshot;
    const snapshot = this.ratesOver(windowMs);
    if (live) this.lastLive = { scrape: this.scrapes, startedMs: this.now(), snapshot };
    return snapshot;
  }

  private async ratesOver(windowMs: number): Promise<RatesSnapshot> {
    const nowMs = this.now();
    const { staleAfterMs } = this.timing();
    const { ports, newestMs } = await this.readings.ratesSliced(
      nowMs,
      staleAfterMs,
      windowMs,
      Math.max(staleAfterMs, 2.5 * this.errorIntervalMs),
    );
    const result: RatesSnapshot = {
      timeMs: nowMs,
      ok: this.lastError === null,
      lastSampleAgeSeconds: Number.isFinite(newestMs) ? Math.max(0, (nowMs - newestMs) / 1000) : null,
      staleAfterSeconds: staleAfterMs / 1000,
      ports,
    };
    if (this.lastError) result.error = this.lastError;
    return result;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.secondScrape);
    this.timer = undefined;
    this.closing.abort();
    await this.inFlight;
    for (const history of this.histories.values()) history.close();
  }
}
