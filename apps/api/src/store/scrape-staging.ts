import { LabelBlocks, labelsOfBlock } from './exposition-stream.ts';
import type { SeriesMapping } from './series-mapping.ts';
import { type CounterField, PORT_COUNTERS } from './types.ts';

/**
 * What a scrape in progress is kept in: per label block of one target (TargetState), then per
 * port (port-readings.ts), so a scrape that fails half-way leaves nothing behind.
 */
export const FIELDS = Object.keys(PORT_COUNTERS) as CounterField[];
export const FIELD_COUNT = FIELDS.length;
/** Staged values per label block and per port in a scrape: the counters, then these. */
export const RATE = FIELD_COUNT;
export const WAIT_TICK = FIELD_COUNT + 1;
export const LINK_UP = FIELD_COUNT + 2;
/** 1 when any counter series of the port was in the scrape (a reading is kept even if all are NaN). */
export const COUNTER_SEEN = FIELD_COUNT + 3;
/** When the collector read this port's counters (its own stamp, ms), where it says; NaN: the answer's. */
export const READ_AT = FIELD_COUNT + 4;
/** The port's PortInfo:PortPhysicalState (1..7), where the exporter reports it. */
export const PHYSICAL_STATE = FIELD_COUNT + 5;
export const STAGED = FIELD_COUNT + 6;
export const NO_PORT = -1;
export const UNRESOLVED = -2;

/**
 * `host:port` of a target URL as written (URL parsing would lower-case the host name); an exporter that reads
 * other devices (snmp_exporter's `?target=`) stands for its target, as Prometheus' usual relabelling has it.
 */
export function instanceOf(target: string): string {
  const param = /[?&]target=([^&#]+)/.exec(target)?.[1];
  if (param !== undefined) return decodeURIComponent(param);
  return target.match(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/?#]+)/i)?.[1] ?? target;
}

export function grow<T extends Float64Array | Int32Array | Int8Array>(
  array: T,
  size: number,
  fill: number,
): T {
  if (array.length >= size) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  bigger.set(array);
  bigger.fill(fill, array.length);
  return bigger;
}

/**
 * One scraped target's label blocks (a port's series share one): each block's labels are parsed and resolved to a port
 * once, then each sample is a map lookup.
 */
export class TargetState {
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

/** What each metric a mapping reads is staged as: a counter field, RATE, WAIT_TICK or LINK_UP. */
export interface ScrapeRoles {
  /** The metrics read: counters, link rates, tick lengths, link states, join series. */
  names: string[];
  /** Per metric index: the staged slot it fills, or −1 (a join series only). */
  roles: Int32Array;
  /** Per metric index: 1 for a join series. */
  joins: Uint8Array;
  /** Metric name → its staged slot, for the Arrow form's columns (named as the families). */
  byName: Map<string, number>;
}

export function scrapeRoles(mapping: SeriesMapping): ScrapeRoles {
  const byName = new Map<string, number>();
  for (const [field, i] of FIELDS.map((f, i) => [f, i] as const)) {
    for (const name of mapping.fields[field] ?? []) byName.set(name, i);
  }
  for (const name of mapping.rateMetrics) if (!byName.has(name)) byName.set(name, RATE);
  for (const name of mapping.waitTickMetrics) if (!byName.has(name)) byName.set(name, WAIT_TICK);
  for (const name of Object.keys(mapping.linkUpMetrics)) if (!byName.has(name)) byName.set(name, LINK_UP);
  for (const name of mapping.physicalStateMetrics ?? [])
    if (!byName.has(name)) byName.set(name, PHYSICAL_STATE);
  const names = [...new Set([...byName.keys(), ...mapping.joinMetrics])];
  return {
    names,
    roles: Int32Array.from(names, (name) => byName.get(name) ?? -1),
    joins: Uint8Array.from(names, (name) => (mapping.joinMetrics.includes(name) ? 1 : 0)),
    byName,
  };
}
