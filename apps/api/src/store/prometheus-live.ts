import { ERROR_FIELDS, type ErrorField } from '@fabscope/contracts';
import { EDGE_SERIES, PORT_SERIES } from '@fabscope/contracts/metrics';
import {
  type DirectionRates,
  emptyPortRates,
  type PortRates,
  portKey,
  type RatesSnapshot,
} from '../lib/port-rates.ts';
import type { Tuple } from '../lib/tuple.ts';
import { idleValue } from './error-reading.ts';
import { type InstantSample, type PromqlClient, sampleValue } from './promql-client.ts';

// The fabric collector's rates at the edge (docs/metrics.md "Rates at the edge"): per sweep, one series per link
// direction keyed by its sending port, per port its error fields (sparse), per collector a summary of its directions.

export const LINK_UP = PORT_SERIES.linkUp;
/** Cabled ports only: the collector sets `remote_node_type` on those (docs/metrics.md). */
export const CABLED = 'remote_node_type!=""';

/** The time (Unix seconds) of the newest sweep any collector wrote: the live tick's age, and what evaluation-watch.ts polls. */
export const NEWEST_SWEEP = `max(timestamp(${EDGE_SERIES.sweep}))`;

/** A PromQL expression reduced to one series per port, keyed by (node_guid, port) only. */
export function byPort(expr: string): string {
  return `max by (node_guid, port) (${expr})`;
}

/** A series' value at an instant: its newest sample no older than `heldMs`. */
export function held(selector: string, heldMs: number): string {
  return `last_over_time(${selector}[${Math.max(1, Math.round(heldMs))}ms])`;
}

const FIELDS = new Set<string>(ERROR_FIELDS);

/**
 * The live tick's queries: per direction the collector's newest gauge within the staleness limit (`held`), keyed by
 * sending port; ports down; non-idle error fields (sparse); which fields collectors report; the newest sweep's age.
 */
export function liveQueries(heldMs: number) {
  const last = (selector: string) => held(selector, heldMs);
  return {
    /** Bytes per second of each direction, keyed by its sending port. */
    bytes: byPort(last(EDGE_SERIES.bytes)),
    packets: byPort(last(EDGE_SERIES.packets)),
    /** Share of time each direction's sender waited for credit. */
    wait: byPort(last(EDGE_SERIES.wait)),
    /** Only the ports reported down: every fabscope port has the gauge, so the rest are up. */
    down: `${byPort(last(`${LINK_UP}{${CABLED}}`))} == 0`,
    /** Per port and field, the error rates (gauges as values) that are not idle, NaN where unknown. */
    errors: `max by (node_guid, port, field) (${last(EDGE_SERIES.portErrors)})`,
    /**
     * The error fields the collectors' sources report (absent from the detail: idle), and the one
     * sample without a field: the newest sweep's age — the data is as old as that.
     */
    fields: `count by (field) (${last(EDGE_SERIES.errorFields)}) or (time() - ${NEWEST_SWEEP})`,
  };
}

function keyOf(s: InstantSample): string {
  return portKey(s.metric.node_guid ?? '', s.metric.port ?? '');
}

/**
 * The live tick from the collector's edge rates: one number per direction (`directions`, as measured), and per port
 * link state and error rates, from which the API makes each direction's errors and categories with its own thresholds.
 */
export class EdgeLive {
  private readonly queries: ReturnType<typeof liveQueries>;

  constructor(
    private readonly client: PromqlClient,
    /** Directions whose data is older than this are stale; a sample is held as long. */
    private readonly staleAfterSeconds: number,
  ) {
    this.queries = liveQueries(staleAfterSeconds * 1000);
  }

  /**
   * The store's answer now, or at `atMs` (a past instant: the same queries evaluated then, the age
   * that of the newest sweep before it, so what was stale then is unknown).
   */
  async rates(signal?: AbortSignal, atMs?: number): Promise<Omit<RatesSnapshot, 'timeMs' | 'ok'>> {
    const q = this.queries;
    const [bytes, packets, wait, down, errors, fieldsAndAge] = (await Promise.all(
      [q.bytes, q.packets, q.wait, q.down, q.errors, q.fields].map((p) => this.client.query(p, atMs, signal)),
    )) as Tuple<InstantSample[], 6>;
    const fields = fieldsAndAge.filter((s) => s.metric.field !== undefined);
    const age = fieldsAndAge.filter((s) => s.metric.field === undefined);
    const directions = new Map<string, DirectionRates>();
    const ports = new Map<string, PortRates>();
    const value = (s: InstantSample) => {
      const v = sampleValue(s.value[1]);
      return v !== null && v >= 0 ? v : null;
    };
    for (const s of bytes) {
      const v = value(s);
      if (v === null) continue;
      directions.set(keyOf(s), { bytesPerSecond: v, packetsPerSecond: null, transmitWaitFraction: null });
      // A port with data is up unless it is reported down (below).
      ports.set(keyOf(s), { ...emptyPortRates(), linkUp: true });
    }
    for (const s of packets) {
      const d = directions.get(keyOf(s));
      if (d) d.packetsPerSecond = value(s);
    }
    for (const s of wait) {
      const d = directions.get(keyOf(s));
      const v = value(s);
      if (d && v !== null) d.transmitWaitFraction = Math.min(1, v);
    }
    for (const s of down) {
      const port = ports.get(keyOf(s));
      if (port) port.linkUp = false;
    }
    // Error fields: those the collectors report are idle where the sparse detail has nothing,
    // the detail's value where it has one, unknown where it says NaN; the others unknown.
    const reported = fields.map((s) => s.metric.field ?? '').filter((f): f is ErrorField => FIELDS.has(f));
    if (reported.length > 0) {
      for (const port of ports.values()) {
        const idle: NonNullable<PortRates['errors']> = {};
        for (const field of reported) idle[field] = idleValue(field);
        port.errors = idle;
      }
      for (const s of errors) {
        const field = s.metric.field ?? '';
        const port = ports.get(keyOf(s));
        if (!port?.errors || !FIELDS.has(field)) continue;
        const v = value(s);
        if (v === null) delete port.errors[field as ErrorField];
        else port.errors[field as ErrorField] = v;
      }
    }
    const ageSeconds = age[0] ? sampleValue(age[0].value[1]) : null;
    const result: Omit<RatesSnapshot, 'timeMs' | 'ok'> = {
      lastSampleAgeSeconds: ageSeconds === null ? null : Math.max(0, ageSeconds),
      staleAfterSeconds: this.staleAfterSeconds,
      ports,
      directions,
    };
    if (directions.size === 0 && ageSeconds !== null)
      result.error = `no ${EDGE_SERIES.bytes} series yet: do the collectors write their rates at the edge, and does Prometheus scrape them?`;
    // Past the limit, every direction is unknown (held samples are never older than it anyway).
    if (ageSeconds !== null && ageSeconds > this.staleAfterSeconds) {
      ports.clear();
      directions.clear();
    }
    return result;
  }
}
