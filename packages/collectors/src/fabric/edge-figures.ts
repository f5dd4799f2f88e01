import {
  CATEGORY_NAMES,
  directionCategories,
  directionErrors,
  directionTraffic,
  errorsPerSecond,
  type FabricType,
  measuresPmCategories,
  type PmThresholdConfig,
  type PortRateReading,
  utilizationOf,
} from '@fabscope/topology';
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
import type { PortSample } from './port-sample.ts';

export const CATEGORY_COUNT = CATEGORY_NAMES.length;
/** Sparse direction bits: the categories, then the error sum. */
export const ERRORS_BIT = CATEGORY_COUNT;
export const ERROR_FIELDS: readonly ErrorCounterKey[] = [...ERROR_RATE_KEYS, ...ERROR_GAUGE_KEYS];
const idleOf = (key: ErrorCounterKey) => (key === 'linkQualityIndicator' ? 5 : 0);

/** Every direction of a sweep and its figures, computed once per sweep whatever scrapes ask. */
export interface Directions {
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
 * Every direction of the sweep (each cabled port's outgoing one, and the incoming one of a port
 * whose far end is not in the read) and where it leaves and enters; no figures yet.
 */
export function directionsOf(sweep: EdgeSweep, edge: EdgeRates): Directions {
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

/** The figures of the directions and ports a collector writes, once per sweep however many scrapes ask. */
export function computeFigures(
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
  const pm = measuresPmCategories(fabricType);
  const rateOf = (i: number): PortRateReading | undefined =>
    i >= 0 ? (sweep.rates[i] ?? undefined) : undefined;
  for (const k of directions) {
    const s = d.sender[k] as number;
    const r = d.receiver[k] as number;
    const sender = rateOf(s);
    const receiver = rateOf(r);
    const traffic = directionTraffic(sender, receiver);
    const wait = traffic.transmitWaitFraction;
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
