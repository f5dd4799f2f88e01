import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import {
  CATEGORY_NAMES,
  categoryConfigFor,
  DEFAULT_PM_THRESHOLDS,
  directionCategories,
  directionErrors,
  directionTraffic,
  errorsPerSecond,
  type FabricType,
  measuresWaitAndCategories,
  type PmThresholdConfig,
  type PortRateReading,
  utilizationOf,
} from '@fabscope/topology';
import { escapeLabelValue } from '../exposition/writer.ts';
import type { ChunkWriter } from './chunk-writer.ts';
import {
  DIRECTION_SPARSE,
  type EdgeRates,
  type EdgeSweep,
  ERROR_GAUGE_KEYS,
  ERROR_RATE_KEYS,
  PORT_SPARSE,
  SPARSE_TAIL,
} from './edge-rates.ts';
import type { ErrorCounterKey } from './error-counters.ts';
import type { PortLabels } from './port-exposition.ts';
import type { PortSample } from './port-sample.ts';
import { shardOfPort } from './shard.ts';

// The collector's rates at the edge (docs/metrics.md, "Rates at the edge"; their names:
// @fabscope/contracts/metrics): per sweep, what the views read, computed from exact deltas between
// two reads of each port and stamped with the sweep's read time, so a store keeps them as they are
// instead of differentiating raw counters.

interface EdgeFamily {
  name: string;
  type: 'gauge' | 'counter';
  help: string;
}

/** Every edge family, in the order a scrape writes them. */
export const EDGE_FAMILIES: readonly EdgeFamily[] = [
  {
    name: EDGE.bytes,
    type: 'gauge',
    help: 'Bytes per second of the link direction whose sending port this series names: max(transmit at the sender, receive at the receiver) between two sweeps',
  },
  {
    name: EDGE.packets,
    type: 'gauge',
    help: 'Packets per second of the link direction: max(transmit at the sender, receive at the receiver)',
  },
  {
    name: EDGE.wait,
    type: 'gauge',
    help: 'Share of the time (0..1) the sending port had data queued and no credit (XmitWait × tick length), where the tick is known',
  },
  {
    name: EDGE.utilization,
    type: 'gauge',
    help: "The direction's bytes per second over the link's data rate (after encoding), clamped to 1",
  },
  {
    name: EDGE.errors,
    type: 'gauge',
    help: 'Errors per second of the direction (integrity, security and routing counters; not congestion): written where not 0, and 0 once when they stop',
  },
  {
    name: EDGE.categories,
    type: 'gauge',
    help: "The direction's Omni-Path PM category as a fraction of its threshold (opafm defaults): written where not 0, and 0 once when it returns to 0",
  },
  {
    name: EDGE.portErrors,
    type: 'gauge',
    help: 'A port error counter per second (the two gauges, LQI and lanes down, as values) by its field name: written where not idle (0; LQI 5), NaN where unknown although the data rates are known, and idle once when it returns',
  },
  {
    name: EDGE.resets,
    type: 'counter',
    help: "Times this collector saw the port's counters go backwards (a restart or a clear): the sweep after is a gap",
  },
  {
    name: EDGE.hostBytes,
    type: 'gauge',
    help: 'Bytes per second sent by hosts (the directions whose sender is a host), of the directions this collector writes (those its shard sends)',
  },
  {
    name: EDGE.directions,
    type: 'gauge',
    help: 'Link directions in each 10 % utilization bucket ("0" = [0,10 %) … "9" = [90,100 %]) by kind (isl: switch to switch; host), of the directions this collector writes (those its shard sends)',
  },
  {
    name: EDGE.sweep,
    type: 'gauge',
    help: "Seconds between this sweep's read and the previous one: the interval the edge rates cover (stamped with the read time)",
  },
  {
    name: EDGE.errorFields,
    type: 'gauge',
    help: 'Ports of this collector whose source reports the error field (a field of a port absent from fabscope_port_error_detail is 0 where its collector reports it)',
  },
];

const CATEGORY_COUNT = CATEGORY_NAMES.length;
/** Sparse direction bits: the categories, then the error sum. */
const ERRORS_BIT = CATEGORY_COUNT;
const ERROR_FIELDS: readonly ErrorCounterKey[] = [...ERROR_RATE_KEYS, ...ERROR_GAUGE_KEYS];
const idleOf = (key: ErrorCounterKey) => (key === 'linkQualityIndicator' ? 5 : 0);

/** Every direction of a sweep and its figures, computed once per sweep whatever scrapes ask. */
interface Directions {
  count: number;
  /** Snapshot index of the sender / receiver, -1 when not in the snapshot. */
  sender: Int32Array;
  receiver: Int32Array;
  /** The direction leaving / arriving at each snapshot port, -1 when none. */
  outOf: Int32Array;
  into: Int32Array;
  bytes: Float64Array;
  packets: Float64Array;
  wait: Float64Array;
  utilization: Float64Array;
  errors: Float64Array;
  categories: Float64Array;
  /** Which sparse series (ERRORS_BIT, categories) each direction writes this sweep. */
  write: Uint32Array;
  /** The slot of each direction's sender (its sparse state). */
  senderSlot: Int32Array;
  /** Whether the figures were computed (once per sweep, for the directions and ports a collector writes). */
  ready: boolean;
  /** Per snapshot port: its error fields' values (NaN unknown) and which it writes this sweep. */
  portValues: Float64Array;
  portWrite: Uint32Array;
}

const computed = new WeakMap<EdgeSweep, Directions>();

const nan = (v: number | null) => (v === null ? Number.NaN : v);

/**
 * Every direction of the sweep — each cabled port's outgoing one, and the incoming one of a port
 * whose far end is not in the read — and where it leaves and enters; the figures are computed
 * later, for the directions a collector writes (computeFigures).
 */
function directionsOf(sweep: EdgeSweep, edge: EdgeRates): Directions {
  const done = computed.get(sweep);
  if (done) return done;
  const ports = sweep.snapshot.ports;
  const n = ports.length;
  const senders: number[] = [];
  const receivers: number[] = [];
  const senderSlots: number[] = [];
  const outOf = new Int32Array(n).fill(-1);
  const into = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = ports[i] as PortSample;
    if (!p.remote) continue;
    const r = sweep.remoteIndex[i] as number;
    outOf[i] = senders.length;
    if (r >= 0) into[r] = senders.length;
    senders.push(i);
    receivers.push(r);
    senderSlots.push(sweep.slots[i] as number);
  }
  // Directions whose sender is not in the snapshot (its read failed): from the receiver alone.
  for (let i = 0; i < n; i++) {
    const p = ports[i] as PortSample;
    if (!p.remote || sweep.remoteIndex[i] !== -1) continue;
    into[i] = senders.length;
    senders.push(-1);
    receivers.push(i);
    senderSlots.push(edge.slotOf(`${p.remote.nodeGuid}/${p.remote.portNumber}`));
  }
  const count = senders.length;
  const d: Directions = {
    count,
    sender: Int32Array.from(senders),
    receiver: Int32Array.from(receivers),
    outOf,
    into,
    bytes: new Float64Array(count).fill(Number.NaN),
    packets: new Float64Array(count).fill(Number.NaN),
    wait: new Float64Array(count).fill(Number.NaN),
    utilization: new Float64Array(count).fill(Number.NaN),
    errors: new Float64Array(count).fill(Number.NaN),
    categories: new Float64Array(count * CATEGORY_COUNT).fill(Number.NaN),
    write: new Uint32Array(count),
    senderSlot: Int32Array.from(senderSlots),
    ready: false,
    portValues: new Float64Array(n * ERROR_FIELDS.length).fill(Number.NaN),
    portWrite: new Uint32Array(n),
  };
  computed.set(sweep, d);
  return d;
}

/**
 * The figures of the directions and ports a collector writes (its shard's), once per sweep
 * however many scrapes ask: which sparse series to write is decided here, against the sweep
 * before.
 */
function computeFigures(
  d: Directions,
  sweep: EdgeSweep,
  edge: EdgeRates,
  config: PmThresholdConfig,
  directions: readonly number[],
  portIndices: Int32Array,
): void {
  if (d.ready) return;
  d.ready = true;
  const ports = sweep.snapshot.ports;
  const fabricType = sweep.snapshot.fabricType as FabricType;
  const pm = measuresWaitAndCategories(fabricType);
  const rateOf = (i: number): PortRateReading | undefined =>
    i >= 0 ? (sweep.rates[i] ?? undefined) : undefined;
  for (const k of directions) {
    const s = d.sender[k] as number;
    const r = d.receiver[k] as number;
    const sender = rateOf(s);
    const receiver = rateOf(r);
    const traffic = directionTraffic(sender, receiver);
    const wait = pm ? traffic.transmitWaitFraction : null;
    const capacity = (ports[s >= 0 ? s : r] as PortSample).rateBytesPerSecond;
    d.bytes[k] = nan(traffic.bytesPerSecond);
    d.packets[k] = nan(traffic.packetsPerSecond);
    d.wait[k] = nan(wait);
    d.utilization[k] = nan(utilizationOf(traffic.bytesPerSecond, capacity));
    // Sparse: written where not 0, then 0 for SPARSE_TAIL sweeps; an unknown value writes nothing.
    const tail = (d.senderSlot[k] as number) * DIRECTION_SPARSE;
    let write = 0;
    const sparse = (bit: number, value: number | null) => {
      if (value === null) return;
      const left = edge.directionTail[tail + bit] as number;
      if (value !== 0) edge.directionTail[tail + bit] = SPARSE_TAIL;
      else if (left > 0) edge.directionTail[tail + bit] = left - 1;
      else return;
      write |= 1 << bit;
    };
    const errors = directionErrors(sender, receiver);
    const sum = errorsPerSecond(errors);
    d.errors[k] = nan(sum);
    sparse(ERRORS_BIT, sum);
    if (pm) {
      const categories = directionCategories(errors, { ...traffic, transmitWaitFraction: wait }, config);
      CATEGORY_NAMES.forEach((name, c) => {
        const v = categories[name];
        d.categories[k * CATEGORY_COUNT + c] = nan(v);
        sparse(c, v);
      });
    }
    d.write[k] = write;
  }
  // Per port, its error fields: written where not idle, NaN where unknown although the port has
  // data rates this sweep, then idle for SPARSE_TAIL sweeps; nothing for a port in a gap.
  for (const i of portIndices) {
    const p = ports[i] as PortSample;
    const rates = sweep.rates[i];
    if (!p.errors || !rates) continue;
    const tail = (sweep.slots[i] as number) * PORT_SPARSE;
    let write = 0;
    ERROR_FIELDS.forEach((key, f) => {
      if (p.errors?.[key] === undefined) return;
      const v = rates.errors?.[key] ?? Number.NaN;
      d.portValues[i * ERROR_FIELDS.length + f] = v;
      const left = edge.portTail[tail + f] as number;
      if (Number.isNaN(v) || v !== idleOf(key)) edge.portTail[tail + f] = SPARSE_TAIL;
      else if (left > 0) edge.portTail[tail + f] = left - 1;
      else return;
      write |= 1 << f;
    });
    d.portWrite[i] = write;
  }
}

/**
 * Writes the edge families (those in `names`, or all) of the sweep for the ports of `labels`
 * (this collector's shard): each direction whose sending port is among them, keyed by that port as
 * the raw `fabscope_link_data_received_bytes_total` is (a direction between two shards is written
 * once, by its sender's); per port its error fields and resets; and the summary of those
 * directions. Every sample carries the sweep's read time.
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
  const ports = sweep.snapshot.ports;
  const timestamp = Buffer.from(` ${Math.round(sweep.timeMs)}`, 'latin1');
  // The directions this collector writes, with their labels: those whose sending port is in its
  // shard (a direction between two shards is its sender's), from whichever ends the read has.
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
  computeFigures(d, sweep, edge, config, written, labels.indices);
  const fabric = labels.fabric;
  const typeOfEnd = (k: number, end: 'sender' | 'receiver'): string => {
    const s = d.sender[k] as number;
    const r = d.receiver[k] as number;
    if (end === 'sender') {
      if (s >= 0) return (ports[s] as PortSample).nodeType;
      const remote = (ports[r] as PortSample).remote;
      return remote ? (labels.typeOf.get(remote.nodeGuid) ?? '') : '';
    }
    if (r >= 0) return (ports[r] as PortSample).nodeType;
    const remote = (ports[s] as PortSample).remote;
    return remote ? (labels.typeOf.get(remote.nodeGuid) ?? '') : '';
  };

  const dense = (values: Float64Array) =>
    function* (family: EdgeFamily): Generator<Buffer> {
      const name = Buffer.from(family.name, 'latin1');
      let header = false;
      for (let w = 0; w < written.length; w++) {
        const v = values[written[w] as number] as number;
        if (Number.isNaN(v)) continue;
        if (!header) {
          out.header(family.name, family.type, family.help);
          header = true;
        }
        out.sample(name, labelOf[w] as Buffer, v, timestamp);
        if (out.ready.length > 0) yield* out.drain();
      }
    };
  /** A label set with one more label before the closing brace (`…,category="integrity"} `). */
  const withLabel = (label: Buffer, extra: string) =>
    Buffer.concat([label.subarray(0, label.length - 2), Buffer.from(`,${extra}} `, 'latin1')]);

  const writers: Record<string, (family: EdgeFamily) => Generator<Buffer>> = {
    [EDGE.bytes]: dense(d.bytes),
    [EDGE.packets]: dense(d.packets),
    [EDGE.wait]: dense(d.wait),
    [EDGE.utilization]: dense(d.utilization),
    *[EDGE.errors](family) {
      const name = Buffer.from(family.name, 'latin1');
      let header = false;
      for (let w = 0; w < written.length; w++) {
        const k = written[w] as number;
        if (!(((d.write[k] as number) >> ERRORS_BIT) & 1)) continue;
        if (!header) {
          out.header(family.name, family.type, family.help);
          header = true;
        }
        out.sample(name, labelOf[w] as Buffer, d.errors[k] as number, timestamp);
      }
      yield* out.drain();
    },
    *[EDGE.categories](family) {
      const name = Buffer.from(family.name, 'latin1');
      let header = false;
      for (let w = 0; w < written.length; w++) {
        const k = written[w] as number;
        const write = d.write[k] as number;
        if ((write & ((1 << CATEGORY_COUNT) - 1)) === 0) continue;
        CATEGORY_NAMES.forEach((category, c) => {
          if (!((write >> c) & 1)) return;
          if (!header) {
            out.header(family.name, family.type, family.help);
            header = true;
          }
          const label = withLabel(labelOf[w] as Buffer, `category="${category}"`);
          out.sample(name, label, d.categories[k * CATEGORY_COUNT + c] as number, timestamp);
        });
      }
      yield* out.drain();
    },
    *[EDGE.portErrors](family) {
      const name = Buffer.from(family.name, 'latin1');
      let header = false;
      for (let i = 0; i < labels.ports.length; i++) {
        const si = labels.indices[i] as number;
        const write = d.portWrite[si] as number;
        if (write === 0) continue;
        ERROR_FIELDS.forEach((field, f) => {
          if (!((write >> f) & 1)) return;
          if (!header) {
            out.header(family.name, family.type, family.help);
            header = true;
          }
          const label = withLabel(labels.keyOf(i), `field="${field}"`);
          out.sample(name, label, d.portValues[si * ERROR_FIELDS.length + f] as number, timestamp);
        });
      }
      yield* out.drain();
    },
    *[EDGE.resets](family) {
      const name = Buffer.from(family.name, 'latin1');
      let header = false;
      for (let i = 0; i < labels.ports.length; i++) {
        const resets = edge.resets(sweep.slots[labels.indices[i] as number] as number);
        if (resets === 0) continue;
        if (!header) {
          out.header(family.name, family.type, family.help);
          header = true;
        }
        out.sample(name, labels.keyOf(i), resets, timestamp);
      }
      yield* out.drain();
    },
    *[EDGE.hostBytes](family) {
      let total = 0;
      let known = 0;
      for (let w = 0; w < written.length; w++) {
        const k = written[w] as number;
        const v = d.bytes[k] as number;
        if (Number.isNaN(v) || typeOfEnd(k, 'sender') !== 'host') continue;
        total += v;
        known++;
      }
      if (known === 0) return;
      out.header(family.name, family.type, family.help);
      out.sample(Buffer.from(family.name), Buffer.from(`{fabric="${fabric}"} `), total, timestamp);
      yield* out.drain();
    },
    *[EDGE.directions](family) {
      const buckets = { isl: new Array<number>(10).fill(0), host: new Array<number>(10).fill(0) };
      for (let w = 0; w < written.length; w++) {
        const k = written[w] as number;
        const u = d.utilization[k] as number;
        if (Number.isNaN(u)) continue;
        const isl = typeOfEnd(k, 'sender') === 'switch' && typeOfEnd(k, 'receiver') === 'switch';
        const bars = isl ? buckets.isl : buckets.host;
        const b = Math.min(9, Math.max(0, Math.floor(u * 10)));
        bars[b] = (bars[b] ?? 0) + 1;
      }
      out.header(family.name, family.type, family.help);
      const name = Buffer.from(family.name);
      for (const kind of ['isl', 'host'] as const) {
        buckets[kind].forEach((n, b) => {
          out.sample(name, Buffer.from(`{fabric="${fabric}",kind="${kind}",bucket="${b}"} `), n, timestamp);
        });
      }
      yield* out.drain();
    },
    *[EDGE.sweep](family) {
      if (sweep.intervalSeconds === null) return;
      out.header(family.name, family.type, family.help);
      out.sample(
        Buffer.from(family.name),
        Buffer.from(`{fabric="${fabric}"} `),
        sweep.intervalSeconds,
        timestamp,
      );
      yield* out.drain();
    },
    *[EDGE.errorFields](family) {
      const counts = new Array<number>(ERROR_FIELDS.length).fill(0);
      for (const p of labels.ports) {
        ERROR_FIELDS.forEach((key, f) => {
          if (p.errors?.[key] !== undefined) counts[f] = (counts[f] ?? 0) + 1;
        });
      }
      if (counts.every((c) => c === 0)) return;
      out.header(family.name, family.type, family.help);
      const name = Buffer.from(family.name);
      counts.forEach((c, f) => {
        if (c === 0) return;
        const field = escapeLabelValue(ERROR_FIELDS[f] as string);
        out.sample(name, Buffer.from(`{fabric="${fabric}",field="${field}"} `), c, timestamp);
      });
      yield* out.drain();
    },
  };
  for (const family of families)
    yield* (writers[family.name] as (f: EdgeFamily) => Generator<Buffer>)(family);
}
