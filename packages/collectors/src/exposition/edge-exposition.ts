import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import {
  categoryConfigFor,
  DEFAULT_PM_THRESHOLDS,
  type FabricType,
  type PmThresholdConfig,
} from '@fabscope/topology';
import { computeFigures, type Directions, directionsOf } from '../fabric/edge-figures.ts';
import type { EdgeRates, EdgeSweep } from '../fabric/edge-rates.ts';
import type { PortSample } from '../fabric/port-sample.ts';
import { shardOfPort } from '../fabric/shard.ts';
import type { ChunkWriter } from './chunk-writer.ts';
import {
  type EdgeFamily,
  type EdgeScrape,
  writeCategories,
  writeDense,
  writeDirectionErrors,
  writeErrorFields,
  writeHostBytes,
  writePortErrors,
  writeResets,
  writeSaturated,
  writeSweepInterval,
  writeUtilizationBuckets,
} from './edge-writers.ts';
import type { PortLabels } from './port-exposition.ts';

// The rates at the edge (docs/metrics.md; their names: @fabscope/contracts/metrics), per sweep,
// stamped with its read time, so a store keeps them as they are.

/** Every edge family, in the order a scrape writes them; a gauge unless it says otherwise. */
export const EDGE_FAMILIES: readonly EdgeFamily[] = (
  [
    {
      name: EDGE.bytes,
      help: 'Bytes per second of the link direction whose sending port this series names: max(transmit at the sender, receive at the receiver) between two sweeps',
      dense: (d) => d.bytes,
    },
    {
      name: EDGE.packets,
      help: 'Packets per second of the link direction: max(transmit at the sender, receive at the receiver)',
      dense: (d) => d.packets,
    },
    {
      name: EDGE.wait,
      help: 'Share of the time (0..1) the sending port had data queued and no credit (XmitWait × tick length), where the tick is known',
      dense: (d) => d.wait,
    },
    {
      name: EDGE.utilization,
      help: "The direction's bytes per second over the link's data rate (after encoding), never clamped",
      dense: (d) => d.utilization,
    },
    {
      name: EDGE.errors,
      help: 'Errors per second of the direction (integrity, security and routing counters; not congestion): written where not 0, and 0 once when they stop',
      write: writeDirectionErrors,
    },
    {
      name: EDGE.categories,
      help: "The direction's Omni-Path PM category as a fraction of its threshold (opafm defaults): written where not 0, and 0 once when it returns to 0",
      write: writeCategories,
    },
    {
      name: EDGE.portErrors,
      help: 'A port error counter per second (the two gauges, LQI and lanes down, as values) by its field name: written where not idle (0; LQI 5), NaN where unknown although the data rates are known, and idle once when it returns',
      write: writePortErrors,
    },
    {
      name: EDGE.resets,
      type: 'counter',
      help: "Times this collector saw the port's counters go backwards (a restart or a clear): the sweep after is a gap",
      write: writeResets,
    },
    {
      name: EDGE.saturated,
      help: 'Unix time (s) of the first reading at which the port counter named by field stood at the maximum of its width: saturated, it counts no more, so its value and rate are unknown until it is cleared (absent while it counts)',
      write: writeSaturated,
    },
    {
      name: EDGE.hostBytes,
      help: 'Bytes per second sent by hosts (the directions whose sender is a host), of the directions this collector writes (those its shard sends)',
      write: writeHostBytes,
    },
    {
      name: EDGE.directions,
      help: 'Link directions in each 10 % utilization bucket ("0" = [0,10 %) … "9" = [90,100 %]) by kind (isl: switch to switch; host), of the directions this collector writes (those its shard sends)',
      write: writeUtilizationBuckets,
    },
    {
      name: EDGE.sweep,
      help: "Seconds between this sweep's read and the previous one: the interval the edge rates cover (stamped with the read time)",
      write: writeSweepInterval,
    },
    {
      name: EDGE.errorFields,
      help: 'Ports of this collector whose source reports the error field (a field of a port absent from fabscope_port_error_detail is 0 where its collector reports it)',
      write: writeErrorFields,
    },
  ] satisfies (Omit<EdgeFamily, 'type'> & { type?: 'counter' })[]
).map((f): EdgeFamily => ({ type: 'gauge', ...f }));

/** The directions this collector writes (those whose sender is in its shard), with their label sets. */
function writtenDirections(d: Directions, labels: PortLabels): { written: number[]; labelOf: Buffer[] } {
  const written: number[] = [];
  const labelOf: Buffer[] = [];
  const shard = labels.shard;
  labels.ports.forEach((p, i) => {
    const si = labels.indices[i] as number;
    const out = d.outOf[si] as number;
    if (out >= 0) {
      written.push(out);
      labelOf.push(labels.keyOf(i));
    }
    // A sender missing from the read (its own read failed, or another collector reads it): the
    // direction is this collector's if the sender belongs to its shard, from the receiver alone.
    const into = d.into[si] as number;
    const remote = p.remote;
    if (into < 0 || (d.sender[into] as number) >= 0 || !remote) return;
    const senderType = (labels.typeOf.get(remote.nodeGuid) ?? 'switch') as PortSample['nodeType'];
    const mine =
      !shard ||
      shard.count <= 1 ||
      shardOfPort(
        {
          ...p,
          nodeGuid: remote.nodeGuid,
          nodeType: senderType,
          remote: { nodeGuid: p.nodeGuid, nodeName: p.nodeName, portNumber: p.portNumber },
        },
        shard.count,
      ) === shard.index;
    const label = labels.senderOf(i);
    if (!mine || !label) return;
    written.push(into);
    labelOf.push(label);
  });
  return { written, labelOf };
}

/**
 * Writes the edge families (those in `names`, or all) for the ports of `labels`: each direction
 * keyed by its sending port, each port's error fields and resets, and the directions' summary.
 */
export function* edgeExpositionChunks(
  sweep: EdgeSweep,
  edge: EdgeRates,
  labels: PortLabels,
  out: ChunkWriter,
  names?: ReadonlySet<string>,
  pmThresholds: PmThresholdConfig = DEFAULT_PM_THRESHOLDS,
): Generator<Buffer> {
  const families = EDGE_FAMILIES.filter((f) => !names || names.has(f.name));
  if (families.length === 0) return;
  const config = categoryConfigFor(sweep.snapshot.fabricType as FabricType, pmThresholds);
  const d = directionsOf(sweep, edge);
  const timestamp = Buffer.from(` ${Math.round(sweep.timeMs)}`, 'latin1');
  const { written, labelOf } = writtenDirections(d, labels);
  computeFigures(d, sweep, edge, config, written, labels.indices);
  const scrape: EdgeScrape = { sweep, edge, labels, out, d, written, labelOf, timestamp };
  for (const family of families) {
    const name = out.header(family);
    if (family.dense) yield* writeDense(name, family.dense(d), scrape);
    else family.write?.(name, scrape);
    yield* out.drain();
  }
}
