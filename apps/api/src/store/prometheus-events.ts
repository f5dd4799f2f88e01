import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import type { FabricEvent } from '../lib/fabric-event.ts';
import { portKey } from '../lib/port-rates.ts';
import { CABLED, LINK_UP } from './prometheus-live.ts';
import { type InstantSample, labelValue, type PromqlClient, sampleValue } from './promql-client.ts';

/** How the events name what they happened to. */
export interface EventNames {
  /** Step of the range reads. */
  stepMs: number;
  /** The link a sending port's key is an end of (the key itself when none). */
  linkOfPort(port: string): string;
  /** A node's name by GUID (the GUID when none). */
  nameOfGuid(guid: string): string;
}

/**
 * Link-state changes and counter resets between `fromMs` and `toMs`: the TSDB first names the series that changed
 * (changes(), resets over the range), then only those are read, so the events survive a restart of the API.
 */
export async function seriesEvents(
  client: PromqlClient,
  names: EventNames,
  fromMs: number,
  toMs: number,
  signal?: AbortSignal,
): Promise<FabricEvent[]> {
  const seconds = Math.max(1, Math.ceil((toMs - fromMs) / 1000));
  const { stepMs } = names;
  const cabled = `{${CABLED}}`;
  const [linkChanges, resets] = await Promise.all([
    client.query(`changes(${LINK_UP}${cabled}[${seconds}s]) > 0`, toMs, signal),
    // The collector counts each port's resets (a sparse counter: the ports that ever reset).
    client.query(`last_over_time(${EDGE_SERIES.resets}${cabled}[${seconds}s])`, toMs, signal),
  ]);
  const read = async (series: readonly InstantSample[], name: string) => {
    const ranges = series
      .slice(0, 1000)
      .map(({ metric }) =>
        client.queryRange(
          `${name}{node_guid="${labelValue(metric.node_guid ?? '')}",port="${labelValue(metric.port ?? '')}"}`,
          fromMs,
          toMs,
          stepMs,
          signal,
        ),
      );
    return (await Promise.all(ranges)).flat();
  };
  const readings: PortStateReading[] = [];
  for (const s of await read(linkChanges, LINK_UP)) {
    const port = portKey(s.metric.node_guid ?? '', s.metric.port ?? '');
    const linkId = names.linkOfPort(port);
    for (const { timeMs, value, previous } of withPrevious(s.values))
      readings.push({ linkId, port, timeMs, up: value === 1, first: previous === null });
  }
  const events: FabricEvent[] = linkStateChanges(readings);
  for (const s of await read(resets, EDGE_SERIES.resets)) {
    for (const { timeMs, value, previous } of withPrevious(s.values)) {
      // A reset counted (or a collector's count starting over), or the count's first sample
      // inside the range: the port's first reset the collector saw.
      if (previous === null ? timeMs <= fromMs : value === previous) continue;
      events.push({
        timeMs,
        kind: 'counter-reset',
        subject: `${names.nameOfGuid(s.metric.node_guid ?? '')}/${s.metric.port}`,
        detail: 'counters went backwards',
      });
    }
  }
  return events;
}

/** One port's link state at one sample; `first`: the first sample of its series in the range. */
export interface PortStateReading {
  linkId: string;
  port: string;
  timeMs: number;
  up: boolean;
  first: boolean;
}

/**
 * A link's changes from its ports' samples: down while either end reads down, up when none does, one event per change
 * of the link (its two ends seen at different instants are one change), so every `link down` has its `link up`.
 */
export function linkStateChanges(readings: readonly PortStateReading[]): FabricEvent[] {
  const sorted = [...readings].sort((a, b) => a.timeMs - b.timeMs);
  const ports = new Map<string, Map<string, boolean>>();
  const reported = new Map<string, boolean>();
  const events: FabricEvent[] = [];
  for (const r of sorted) {
    let ends = ports.get(r.linkId);
    if (!ends) {
      ends = new Map();
      ports.set(r.linkId, ends);
    }
    ends.set(r.port, r.up);
    const up = ![...ends.values()].includes(false);
    const was = reported.get(r.linkId);
    reported.set(r.linkId, up);
    if (r.first || was === undefined || was === up) continue;
    events.push({
      timeMs: r.timeMs,
      kind: 'link-state',
      subject: r.linkId,
      detail: up ? 'link up' : 'link down',
    });
  }
  return events;
}

/** The samples of a range series that are numbers, each with the number before it (null for the first). */
function withPrevious(values: readonly [number, string][]) {
  const out: { timeMs: number; value: number; previous: number | null }[] = [];
  let previous: number | null = null;
  for (const [t, v] of values) {
    const value = sampleValue(v);
    if (value === null) continue;
    out.push({ timeMs: Math.round(t * 1000), value, previous });
    previous = value;
  }
  return out;
}
