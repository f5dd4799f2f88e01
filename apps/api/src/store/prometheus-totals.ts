import { PORT_GAUGES } from '@fabscope/contracts';
import { PORT_SERIES } from '@fabscope/contracts/metrics';
import { portKey } from '../lib/port-rates.ts';
import { labelValue, type RangeSeries, sampleValue } from './promql-client.ts';
import { type CounterField, PORT_COUNTERS, type PortTotals } from './types.ts';

/** The collector's counter families the totals are read from (not the gauges: as the embedded store's). */
const FIELD_OF_FAMILY = new Map(
  (Object.keys(PORT_COUNTERS) as CounterField[])
    .filter((f) => !(f in PORT_GAUGES))
    .map((f) => [PORT_COUNTERS[f] as string, f]),
);

/**
 * The one instant query of a node's ports' last readings: the raw samples within `windowSeconds` of every counter
 * family and the physical state of the ports of `keys` (`guid/port`); null when no key is a port of fabscope's.
 */
export function portTotalsQuery(keys: readonly string[], windowSeconds: number): string | null {
  const guids = new Set<string>();
  const ports = new Set<string>();
  for (const key of keys) {
    const at = key.lastIndexOf('/');
    const port = key.slice(at + 1);
    if (at <= 0 || !/^\d+$/.test(port)) continue;
    guids.add(key.slice(0, at));
    ports.add(port);
  }
  if (guids.size === 0) return null;
  const names = [...FIELD_OF_FAMILY.keys(), PORT_SERIES.physicalState];
  // A node's ports are one GUID: an exact match; several are a regular expression of quoted values.
  const guid =
    guids.size === 1
      ? `node_guid="${labelValue([...guids][0] as string)}"`
      : `node_guid=~"${[...guids].map((g) => labelValue(g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('|')}"`;
  const window = Math.max(1, Math.round(windowSeconds));
  return `{__name__=~"${names.join('|')}",${guid},port=~"${[...ports].join('|')}"}[${window}s]`;
}

/**
 * Each port's newest raw sample of every counter family (the counters' newest sample time as its reading time) and of
 * its physical state, from the matrix `portTotalsQuery` answers; null for a port with none (absent or stale).
 */
export function portTotalsOf(keys: readonly string[], series: readonly RangeSeries[]): (PortTotals | null)[] {
  const read = new Map<string, { totals: PortTotals; timeOf: Partial<Record<CounterField, number>> }>();
  for (const s of series) {
    const last = s.values.at(-1);
    const value = last ? sampleValue(last[1]) : null;
    if (!last || value === null) continue;
    const key = portKey(s.metric.node_guid ?? '', s.metric.port ?? '');
    const timeMs = Math.round(last[0] * 1000);
    let port = read.get(key);
    if (!port) {
      port = { totals: { timeMs: Number.NaN, values: {} }, timeOf: {} };
      read.set(key, port);
    }
    const { totals, timeOf } = port;
    const name = s.metric.__name__ ?? '';
    if (name === PORT_SERIES.physicalState) {
      if (!totals.physicalState || timeMs > totals.physicalState.timeMs)
        totals.physicalState = { code: value, timeMs };
      continue;
    }
    const field = FIELD_OF_FAMILY.get(name);
    // Where two series carry one counter (two jobs scraping one collector), the newest sample wins.
    if (field === undefined || (timeOf[field] ?? Number.NEGATIVE_INFINITY) >= timeMs) continue;
    timeOf[field] = timeMs;
    totals.values[field] = value;
    if (!(totals.timeMs >= timeMs)) totals.timeMs = timeMs;
  }
  return keys.map((key) => {
    const port = read.get(key);
    if (!port) return null;
    const { totals } = port;
    if (Number.isNaN(totals.timeMs)) totals.timeMs = totals.physicalState?.timeMs ?? Number.NaN;
    return totals;
  });
}
