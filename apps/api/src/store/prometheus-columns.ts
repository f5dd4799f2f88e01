import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import { utilizationOf } from '@fabscope/topology';
import { InvalidRequestError } from '../errors.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import { rangeTimes, type TimeRange } from '../lib/time-params.ts';
import { type MatrixSeries, readMatrix } from './prometheus-matrix.ts';
import type { PromqlClient } from './promql-client.ts';
import type { LinkColumn } from './time-queries.ts';

/** Points one query is planned to answer (series × steps): a few MB of JSON, parsed while the next is evaluated. */
export const PLANNED_POINTS_PER_QUERY = 400_000;
/**
 * Points one answer may hold: the plan's, with room for the ports a query's port matcher reads beyond those asked
 * (a switch's other ports), else the read fails naming this limit.
 */
export const MAX_POINTS_PER_ANSWER = 4 * PLANNED_POINTS_PER_QUERY;

/** `text` matched literally in a PromQL regex (RE2). */
const regexLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One query's share of the directions: nodes (by GUID) and the port numbers asked of them. */
export interface DirectionGroup {
  guids: string[];
  ports: string[];
  /** The series asked (each node's own ports), for the plan's bound. */
  series: number;
}

/**
 * The sending ports of `ids` in groups of at most `perQuery` series, nodes with the same ports together (every host
 * sends on port 1), so a group's `node_guid=~…, port=~…` reads few ports not asked.
 */
export function directionGroups(
  index: LinkIndex,
  ids: readonly string[],
  perQuery: number,
): DirectionGroup[] {
  const portsOf = new Map<string, Set<string>>();
  for (const id of ids) {
    const from = index.channelById.get(id)?.fixed.from;
    const guid = from && index.fabric.nodeByName.get(from.node)?.guid;
    if (!from || guid === undefined) continue;
    const ports = portsOf.get(guid) ?? new Set<string>();
    portsOf.set(guid, ports.add(String(from.port)));
  }
  // A node with more ports than a query holds is asked in parts.
  const units: { guid: string; ports: string[]; key: string }[] = [];
  for (const [guid, set] of portsOf) {
    const ports = [...set].sort((a, b) => Number(a) - Number(b));
    for (let i = 0; i < ports.length; i += perQuery) {
      const part = ports.slice(i, i + perQuery);
      units.push({ guid, ports: part, key: part.join(',') });
    }
  }
  units.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.guid < b.guid ? -1 : 1));
  const groups: DirectionGroup[] = [];
  let group: DirectionGroup | undefined;
  let ports = new Set<string>();
  for (const u of units) {
    if (!group || group.series + u.ports.length > perQuery) {
      group = { guids: [], ports: [], series: 0 };
      ports = new Set();
      groups.push(group);
    }
    group.guids.push(u.guid);
    group.series += u.ports.length;
    for (const p of u.ports) {
      if (ports.has(p)) continue;
      ports.add(p);
      group.ports.push(p);
    }
  }
  return groups;
}

/** A group's selector: its nodes and port numbers, each a set the TSDB looks up in its index. */
export function groupSelector(group: DirectionGroup): string {
  const set = (values: readonly string[]) => values.map(regexLiteral).join('|');
  const port = group.ports.length === 1 ? `port="${group.ports[0]}"` : `port=~"${set(group.ports)}"`;
  return `{node_guid=~"${set(group.guids)}",${port}}`;
}

/**
 * The history of `ids` over `range` as columns (utilization by the one formula, XmitWait share; NaN unknown), in a
 * few queries per series: `query(name, selector)` writes the PromQL of a direction's value at each step. A port's
 * series are reduced here, not by `max by` in the query: Prometheus' aggregation at every step of a range of a
 * thousand series is most of its time (docs/scaling.md).
 */
export async function prometheusColumns(
  client: Pick<PromqlClient, 'queryRangeText'>,
  index: LinkIndex,
  ids: readonly string[],
  range: TimeRange,
  query: (name: string, selector: string) => string,
  signal?: AbortSignal,
): Promise<LinkColumn[]> {
  const timesMs = Float64Array.from(rangeTimes(range));
  const n = timesMs.length;
  if (n > PLANNED_POINTS_PER_QUERY)
    throw new InvalidRequestError(
      `${n.toLocaleString('en')} steps in one direction's history: more than the ${PLANNED_POINTS_PER_QUERY.toLocaleString('en')} points a query to the TSDB is planned for; ask a coarser step or a shorter window`,
    );
  const utilization = new Float64Array(ids.length * n).fill(Number.NaN);
  const wait = new Float64Array(ids.length * n).fill(Number.NaN);
  // Each asked sending port: its column's offset and the capacity its bytes/s are divided by.
  const slots = new Map<string, { offsets: number[]; capacity: number }>();
  ids.forEach((id, k) => {
    const fixed = index.channelById.get(id)?.fixed;
    const guid = fixed && index.fabric.nodeByName.get(fixed.from.node)?.guid;
    if (!fixed || guid === undefined) return;
    const key = `${guid}/${fixed.from.port}`;
    const slot = slots.get(key) ?? { offsets: [], capacity: fixed.capacityBytesPerSecond };
    slot.offsets.push(k * n);
    slots.set(key, slot);
  });
  const groups = directionGroups(index, ids, Math.max(1, Math.floor(PLANNED_POINTS_PER_QUERY / n)));
  const half = range.stepMs / 2;
  /** A series' points into its columns (bytes/s as utilization, by the one formula): at the step nearest each. */
  const sink =
    (into: Float64Array, bytes: boolean) =>
    ({ metric, timesMs: at, values, count }: MatrixSeries) => {
      const slot = slots.get(`${metric.node_guid}/${metric.port}`);
      if (!slot) return;
      for (let j = 0; j < count; j++) {
        const t = at[j] as number;
        // Within half a step of a step's time: a backend may align its points to step multiples.
        const i = Math.round((t - range.fromMs) / range.stepMs);
        const v = values[j] as number;
        if (i < 0 || i >= n || Math.abs(t - (timesMs[i] as number)) > half || Number.isNaN(v)) continue;
        const value = bytes ? (utilizationOf(v, slot.capacity) ?? Number.NaN) : v;
        // A port written by two collectors (two series): the highest, as `max by (node_guid, port)` takes it.
        for (const offset of slot.offsets) {
          const was = into[offset + i] as number;
          if (!(was >= value)) into[offset + i] = value;
        }
      }
    };
  const read = async (name: string, group: DirectionGroup) => {
    const text = await client.queryRangeText(
      query(name, groupSelector(group)),
      range.fromMs,
      range.toMs,
      range.stepMs,
      signal,
    );
    const bytes = name === EDGE_SERIES.bytes;
    try {
      readMatrix(text, sink(bytes ? utilization : wait, bytes), MAX_POINTS_PER_ANSWER);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new InvalidRequestError(`${error.message}: ask a shorter window or a coarser step`);
    }
  };
  await Promise.all(groups.flatMap((g) => [read(EDGE_SERIES.bytes, g), read(EDGE_SERIES.wait, g)]));
  return ids.map((id, k) => ({
    id,
    timesMs,
    utilization: utilization.subarray(k * n, (k + 1) * n),
    transmitWaitFraction: wait.subarray(k * n, (k + 1) * n),
  }));
}
