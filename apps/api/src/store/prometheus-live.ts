import { CABLED, LINK_UP, recordedSeries } from './prometheus-history.ts';
import { type InstantSample, type PromqlClient, sampleValue } from './promql-client.ts';
import {
  ERROR_COUNTERS,
  type ErrorCounterField,
  emptyPortRates,
  PORT_GAUGES,
  type PortGaugeField,
  type PortRates,
  portKey,
  type RatesSnapshot,
} from './types.ts';

const SOURCE_UP = 'fabscope_fabric_source_up';

/**
 * The time (Unix seconds) of the newest evaluation of the direction rules: the timestamp of the
 * histogram counts recorded with them (~10 series). The live tick's age and evaluation-watch.ts.
 */
export function newestEvaluation(rateWindow: string): string {
  return `max(timestamp(${recordedSeries(rateWindow).allBuckets}))`;
}
const WAIT_TICK = 'fabscope_port_transmit_wait_tick_seconds';

/** A PromQL expression reduced to one series per port, keyed by (node_guid, port) only. */
function byPort(expr: string): string {
  return `max by (node_guid, port) (${expr})`;
}

/**
 * What the live tick asks Prometheus, every tick (`tick`) and at the slow cadence (`slow`). Every
 * answer is one small series per cabled port, or one number: the per-direction join and max (the
 * API's formula) are the recording rules' (deploy/prometheus/rules/recording.yml), and labels
 * other than the port's key are aggregated away so the answers stay short.
 */
export function liveQueries(rateWindow: string, errorWindow: string) {
  const names = recordedSeries(rateWindow);
  const cabled = `{${CABLED}}`;
  // No full-window guard on the recorded rates: the rules take deriv() of counters stamped with
  // their read time, which never extrapolates a part-filled window (rate() did, reading low right
  // after Prometheus or a series started, so each tick here re-read every port's counter to check
  // its window). A window with fewer than two samples records nothing: unknown, never low.
  return {
    tick: {
      /** Bytes per second of each direction, keyed by its sending port. */
      bytes: byPort(names.directionBytes),
      /**
       * Packets per second sent by each cabled port (the recorded port rate): the direction's
       * packets from its sender alone, as no rule records a per-direction packet rate.
       */
      packets: byPort(`port:fabscope_port_packets_transmitted:rate${rateWindow}${cabled}`),
      /** Share of time each cabled port waited for credit (XmitWait ticks × tick length). */
      wait: byPort(`${names.portWait}${cabled}`),
      /** Only the ports reported down: every fabscope port has the gauge, so the rest are up. */
      down: `${byPort(LINK_UP)} == 0`,
      /**
       * The newest successful read of a collector and the newest evaluation of the direction rules:
       * the data is as old as the older. Each from a handful of series (a collector's
       * fabscope_fabric_source_up, stamped at its scrape's start, which precedes the read; the
       * histogram counts recorded in the same evaluation as the directions, at its timestamp)
       * rather than the timestamps of every port's series, which cost Prometheus 2.42 a sort of
       * 41k-166k label sets per query.
       */
      // timestamp() of a selector: of an expression (`x == 1`) it is the query's own time.
      counterAge: `time() - max(timestamp(${SOURCE_UP}) and ${SOURCE_UP} == 1)`,
      recordedAge: `time() - ${newestEvaluation(rateWindow)}`,
    },
    slow: {
      /** The XmitWait tick length: a constant of the port, read again at the slow cadence only. */
      waitTick: byPort(`${WAIT_TICK}${cabled}`),
      /** Which error families Prometheus has at all: a port without a nonzero rate in one has 0. */
      families: `count by (__name__) ({__name__=~"${Object.values(ERROR_COUNTERS).join('|')}"})`,
      /** Per error counter, only the ports that counted errors (few); a window with a reset is left out. */
      errors: Object.fromEntries(
        (Object.entries(ERROR_COUNTERS) as [ErrorCounterField, string][]).map(([field, name]) => {
          const range = `${name}${cabled}[${errorWindow}]`;
          return [field, byPort(`rate(${range}) > 0 unless resets(${range}) > 0`)];
        }),
      ) as Record<ErrorCounterField, string>,
      /** The link quality and lanes-down gauges of every cabled port. */
      gauges: Object.fromEntries(
        (Object.entries(PORT_GAUGES) as [PortGaugeField, string][]).map(([field, name]) => [
          field,
          byPort(`${name}${cabled}`),
        ]),
      ) as Record<PortGaugeField, string>,
    },
  };
}

export interface RecordedLiveOptions {
  /** The recording rules' rate window, e.g. `5s`. */
  rateWindow: string;
  /** Range of the error counters' rate(): spans at least two of their scrapes. */
  errorWindow: string;
  /** How often the error counters, their gauges and the tick lengths are read again (0: every tick). */
  slowRefreshMs: number;
  /** Directions whose data is older than this are stale. */
  staleAfterSeconds: number;
  now?: () => number;
}

interface SlowAnswers {
  readAtMs: number;
  waitTick: Map<string, number>;
  errors: Map<string, Partial<Record<ErrorCounterField | PortGaugeField, number>>>;
  families: Set<ErrorCounterField>;
}

const fieldOfCounter = new Map(
  (Object.entries(ERROR_COUNTERS) as [ErrorCounterField, string][]).map(([f, n]) => [n, f]),
);

function keyOf(s: InstantSample): string {
  return portKey(s.metric.node_guid ?? '', s.metric.port ?? '');
}

/**
 * The live tick with Prometheus from the recorded series: a handful of queries whose answers are
 * one number per cabled port, never the raw counters of every port (nine rate() queries over every
 * series, 2 M at fat-tree-27648). Error counters change slowly and are scraped slowly at scale, so
 * they are read at the slow cadence, and only the ports that counted some.
 */
export class RecordedLive {
  private slow: SlowAnswers | null = null;
  /** A refresh of the slow answers under way (in the background once there are some). */
  private refreshing: Promise<SlowAnswers> | null = null;
  /** Why the last background refresh failed, if it did (the previous answers stay in use). */
  slowError: string | undefined;
  private readonly queries: ReturnType<typeof liveQueries>;
  private readonly now: () => number;

  constructor(
    private readonly client: PromqlClient,
    private readonly options: RecordedLiveOptions,
    /** For the slow answers: a longer timeout (they may take seconds at fabric size). */
    private readonly slowClient: PromqlClient = client,
  ) {
    this.queries = liveQueries(options.rateWindow, options.errorWindow);
    this.now = options.now ?? Date.now;
  }

  /**
   * The slow answers: read with the tick when there are none yet or the cadence is every tick
   * (small fabrics); otherwise refreshed in the background when due, so a tick never waits for
   * (or fails with) the error counters of every port.
   */
  private async readSlow(signal?: AbortSignal): Promise<SlowAnswers> {
    const nowMs = this.now();
    const slow = this.slow;
    if (slow && nowMs - slow.readAtMs < this.options.slowRefreshMs) return slow;
    if (slow === null || this.options.slowRefreshMs === 0) return this.refreshSlow(signal);
    this.refreshSlow().then(
      () => {
        this.slowError = undefined;
      },
      (error: unknown) => {
        this.slowError = error instanceof Error ? error.message : String(error);
      },
    );
    return slow;
  }

  private refreshSlow(signal?: AbortSignal): Promise<SlowAnswers> {
    this.refreshing ??= this.readSlowNow(signal).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readSlowNow(signal?: AbortSignal): Promise<SlowAnswers> {
    const nowMs = this.now();
    const client = this.slowClient;
    const q = this.queries.slow;
    const errorFields = Object.keys(q.errors) as ErrorCounterField[];
    const gaugeFields = Object.keys(q.gauges) as PortGaugeField[];
    const [waitTick, families, ...rest] = await Promise.all([
      client.query(q.waitTick, undefined, signal),
      client.query(q.families, undefined, signal),
      ...errorFields.map((f) => client.query(q.errors[f], undefined, signal)),
      ...gaugeFields.map((f) => client.query(q.gauges[f], undefined, signal)),
    ]);
    const errors: SlowAnswers['errors'] = new Map();
    const put = (field: ErrorCounterField | PortGaugeField, samples: InstantSample[] | undefined) => {
      for (const s of samples ?? []) {
        const v = sampleValue(s.value[1]);
        if (v === null || v < 0) continue;
        const key = keyOf(s);
        const entry = errors.get(key) ?? {};
        entry[field] = v;
        errors.set(key, entry);
      }
    };
    errorFields.forEach((f, i) => {
      put(f, rest[i]);
    });
    gaugeFields.forEach((f, i) => {
      put(f, rest[errorFields.length + i]);
    });
    const ticks = new Map<string, number>();
    for (const s of waitTick ?? []) {
      const v = sampleValue(s.value[1]);
      if (v !== null && v > 0) ticks.set(keyOf(s), v);
    }
    const present = new Set<ErrorCounterField>();
    for (const s of families ?? []) {
      const field = fieldOfCounter.get(s.metric.__name__ ?? '');
      if (field) present.add(field);
    }
    this.slow = { readAtMs: nowMs, waitTick: ticks, errors, families: present };
    return this.slow;
  }

  async rates(signal?: AbortSignal): Promise<Omit<RatesSnapshot, 'timeMs' | 'ok'>> {
    const q = this.queries.tick;
    const [bytes, packets, wait, down, counterAge, recordedAge, slow] = await Promise.all([
      this.client.query(q.bytes, undefined, signal),
      this.client.query(q.packets, undefined, signal),
      this.client.query(q.wait, undefined, signal),
      this.client.query(q.down, undefined, signal),
      this.client.query(q.counterAge, undefined, signal),
      this.client.query(q.recordedAge, undefined, signal),
      this.readSlow(signal),
    ]);
    const ports = new Map<string, PortRates>();
    // A direction is its sending port: its recorded max(tx here, rx at the far end) goes in as
    // this port's transmit rate with no receive rate, so linkDirectionStates' max gives it back.
    for (const s of bytes) {
      const v = sampleValue(s.value[1]);
      if (v === null || v < 0) continue;
      const entry = emptyPortRates();
      entry.transmitBytesPerSecond = v;
      entry.linkUp = true;
      ports.set(keyOf(s), entry);
    }
    for (const s of packets) {
      const entry = ports.get(keyOf(s));
      const v = sampleValue(s.value[1]);
      if (entry && v !== null && v >= 0) entry.transmitPacketsPerSecond = v;
    }
    for (const s of down) {
      const entry = ports.get(keyOf(s));
      if (entry) entry.linkUp = false;
    }
    for (const s of wait) {
      const key = keyOf(s);
      const entry = ports.get(key);
      const fraction = sampleValue(s.value[1]);
      const tick = slow.waitTick.get(key);
      if (!entry || fraction === null || tick === undefined) continue;
      entry.transmitWaitTickSeconds = tick;
      entry.transmitWaitTicksPerSecond = Math.max(0, fraction) / tick;
    }
    if (slow.families.size > 0 || slow.errors.size > 0) {
      for (const [key, entry] of ports) {
        const counted = slow.errors.get(key);
        const errors: NonNullable<PortRates['errors']> = {};
        for (const field of slow.families) errors[field] = counted?.[field] ?? 0;
        if (counted) Object.assign(errors, counted);
        entry.errors = errors;
      }
    }
    const ages = [counterAge[0], recordedAge[0]].map((s) => (s ? sampleValue(s.value[1]) : null));
    const age = ages.some((a) => a === null) ? null : Math.max(0, ...(ages as number[]));
    const result: Omit<RatesSnapshot, 'timeMs' | 'ok'> = {
      lastSampleAgeSeconds: age,
      staleAfterSeconds: this.options.staleAfterSeconds,
      ports,
    };
    if (ports.size === 0 && counterAge.length > 0)
      result.error = `no recorded direction series (${recordedSeries(this.options.rateWindow).directionBytes}) yet: are deploy/prometheus/rules loaded?`;
    // An instant query returns a recorded series' last value for minutes after the rules stopped
    // being evaluated: past the limit, every direction is unknown, as the raw counters would be.
    if (age !== null && age > this.options.staleAfterSeconds) ports.clear();
    return result;
  }
}
