import { ERROR_COUNTERS, PORT_GAUGES, type PortGaugeField } from '@fabscope/contracts';
import { emptyPortRates, type PortRates, type RatesSnapshot } from '../lib/port-rates.ts';
import type { InstantSample } from './promql-client.ts';
import { rateQuery, selector } from './rate-window.ts';
import { linkUpOf, type SeriesMapping } from './series-mapping.ts';
import { type CounterField, PORT_COUNTERS } from './types.ts';

export interface RawRatesOptions {
  /** The evaluation instant every query of the tick is asked at (Unix ms). */
  timeMs: number;
  /** PromQL range for rate() of the counters; at least four scrape intervals. */
  rateWindow: string;
  scrapeIntervalMs: number;
  staleAfterSeconds: number;
  mapping: SeriesMapping;
}

/**
 * The live tick from other sources' raw counters: rate() of each counter the exporter has (a reset is a gap:
 * rate-window.ts), the gauges as they are, the series joined to the topology's ports by the mapping.
 */
export async function rawCounterRates(
  query: (promql: string) => Promise<InstantSample[]>,
  options: RawRatesOptions,
): Promise<RatesSnapshot> {
  const { mapping, rateWindow: window, scrapeIntervalMs: interval } = options;
  // The demo's Prometheus scrapes the error families in a slow job on big fabrics
  // (apps/cli/src/prometheus.ts): their rate needs four of its intervals.
  const errorWindow = interval <= 1000 ? window : `${(4 * Math.max(30_000, 3 * interval)) / 1000}s`;
  // The counters the exporter has (error counters may be missing); gauges are read as they are.
  const fields = (Object.keys(PORT_COUNTERS) as CounterField[]).filter(
    (f) => !(f in PORT_GAUGES) && (mapping.fields[f]?.length ?? 0) > 0,
  );
  const gaugeFields = (Object.keys(PORT_GAUGES) as PortGaugeField[]).filter(
    (f) => (mapping.fields[f]?.length ?? 0) > 0,
  );
  const gauges = (names: readonly string[]) =>
    names.length > 0 ? query(selector(names)) : Promise.resolve([] as InstantSample[]);
  const [ages, joins, waitTicks, linkStates, ...rest] = await Promise.all([
    query(`time() - timestamp(${selector(mapping.fields.transmitBytes)})`),
    gauges(mapping.joinMetrics),
    gauges(mapping.waitTickMetrics),
    gauges(Object.keys(mapping.linkUpMetrics)),
    ...fields.map((f) =>
      query(rateQuery(mapping.fields[f] ?? [], f in ERROR_COUNTERS ? errorWindow : window)),
    ),
    ...gaugeFields.map((f) => gauges(mapping.fields[f] ?? [])),
  ]);
  const sampleOf = (metric: Record<string, string>) => ({
    name: metric.__name__ ?? '',
    labels: metric,
    instance: metric.instance,
  });
  const resolve = mapping.resolver((joins ?? []).map((j) => sampleOf(j.metric)));
  const fold = new PortFold((metric) => resolve(sampleOf(metric)), options.staleAfterSeconds);
  fold.ages(ages ?? []);
  for (const [i, field] of fields.entries()) fold.rates(field, rest[i] ?? []);
  for (const [i, field] of gaugeFields.entries()) fold.gauges(field, rest[fields.length + i] ?? []);
  fold.waitTicks(waitTicks ?? []);
  fold.linkStates(linkStates ?? [], mapping);
  return {
    timeMs: options.timeMs,
    ok: true,
    lastSampleAgeSeconds: Number.isFinite(fold.youngest) ? Math.max(0, fold.youngest) : null,
    // The sampler's health follows the store's limit.
    staleAfterSeconds: options.staleAfterSeconds,
    ports: fold.ports,
  };
}

/** The answers of one tick folded into the ports they are of; ports with fresh counters only. */
class PortFold {
  readonly ports = new Map<string, PortRates>();
  youngest = Number.POSITIVE_INFINITY;
  private readonly fresh = new Set<string>();

  constructor(
    private readonly keyOf: (metric: Record<string, string>) => string | null,
    private readonly staleAfterSeconds: number,
  ) {}

  ages(series: InstantSample[]): void {
    for (const s of series) {
      const age = Number(s.value[1]);
      const key = this.keyOf(s.metric);
      if (key === null) continue;
      this.youngest = Math.min(this.youngest, age);
      if (age <= this.staleAfterSeconds) this.fresh.add(key);
    }
  }

  rates(field: CounterField, series: InstantSample[]): void {
    for (const s of series) {
      const key = this.keyOf(s.metric);
      if (key === null || !this.fresh.has(key)) continue;
      const entry = this.ports.get(key) ?? emptyPortRates();
      this.ports.set(key, entry);
      const value = Number(s.value[1]);
      const rate = Number.isFinite(value) && value >= 0 ? value : null;
      if (field === 'transmitBytes') entry.transmitBytesPerSecond = rate;
      else if (field === 'receiveBytes') entry.receiveBytesPerSecond = rate;
      else if (field === 'transmitPackets') entry.transmitPacketsPerSecond = rate;
      else if (field === 'receivePackets') entry.receivePacketsPerSecond = rate;
      else if (field === 'transmitWait') entry.transmitWaitTicksPerSecond = rate;
      else if (rate !== null) {
        entry.errors ??= {};
        entry.errors[field] ??= rate;
      }
    }
  }

  /** `body` for each sample of a port with fresh counters, with its value. */
  private forPorts(
    series: InstantSample[],
    body: (port: PortRates, value: number, s: InstantSample) => void,
  ) {
    for (const s of series) {
      const key = this.keyOf(s.metric);
      const port = key === null ? undefined : this.ports.get(key);
      if (port) body(port, Number(s.value[1]), s);
    }
  }

  gauges(field: PortGaugeField, series: InstantSample[]): void {
    this.forPorts(series, (port, value) => {
      if (!Number.isFinite(value)) return;
      port.errors ??= {};
      port.errors[field] ??= value;
    });
  }

  waitTicks(series: InstantSample[]): void {
    this.forPorts(series, (port, value) => {
      if (value > 0 && Number.isFinite(value)) port.transmitWaitTickSeconds = value;
    });
  }

  /** The first link state of a port wins. */
  linkStates(series: InstantSample[], mapping: SeriesMapping): void {
    const seen = new Set<PortRates>();
    this.forPorts(series, (port, value, s) => {
      const up = seen.has(port) ? null : linkUpOf(mapping, s.metric.__name__ ?? '', value);
      if (up === null) return;
      seen.add(port);
      port.linkUp = up;
    });
  }
}
