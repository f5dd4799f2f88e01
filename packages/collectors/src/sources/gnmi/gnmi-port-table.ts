import {
  addressOf,
  counterOf,
  type InterfaceLeaf,
  type LeafAddress,
  leavesOf,
  type NeighbourLeaf,
  operStatusOf,
  type PathElem,
  pathElems,
  portSpeedOf,
  type QueueLeaf,
  scalarOf,
} from './gnmi-paths.ts';
import type { GnmiNotification } from './gnmi-proto.ts';

type CounterLeaf = Exclude<InterfaceLeaf, 'operStatus' | 'portSpeed'>;

/** One interface as its target last streamed it; a leaf never streamed is absent (unknown). */
export interface InterfaceReading {
  name: string;
  counters: Partial<Record<CounterLeaf, bigint>>;
  operStatus?: string;
  /** bits/s; NaN when the target said SPEED_UNKNOWN. */
  speedBitsPerSecond?: number;
  /** Output queues by name, with the congestion counters the platform streams for them. */
  queues: Map<string, Partial<Record<QueueLeaf, bigint>>>;
  /** LLDP neighbours by the target's neighbour id: the far switch's name and port as it reports them. */
  neighbours: Map<string, Partial<Record<NeighbourLeaf, string>>>;
}

/** How one notification went: its updates applied, and why each refused one was refused. */
export interface ApplyResult {
  applied: number;
  malformed: string[];
}

/** Most interfaces one target may hold: a notification naming more is refused beyond this, not stored. */
export const MAX_INTERFACES = 4096;

/** The latest value of every leaf one target streamed, by interface; a malformed update costs only itself. */
export class GnmiPortTable {
  private readonly byName = new Map<string, InterfaceReading>();

  interfaces(): InterfaceReading[] {
    return [...this.byName.values()];
  }

  clear(): void {
    this.byName.clear();
  }

  private reading(name: string): InterfaceReading | null {
    let r = this.byName.get(name);
    if (!r) {
      if (this.byName.size >= MAX_INTERFACES) return null;
      r = { name, counters: {}, queues: new Map(), neighbours: new Map() };
      this.byName.set(name, r);
    }
    return r;
  }

  apply(n: GnmiNotification): ApplyResult {
    const result: ApplyResult = { applied: 0, malformed: [] };
    const prefix = pathElems(n.prefix);
    for (const d of n.delete ?? []) this.remove(addressOf([...prefix, ...pathElems(d)]));
    for (const u of n.update ?? []) {
      const base = [...prefix, ...pathElems(u.path)];
      for (const leaf of leavesOf(base, scalarOf(u.val))) {
        const why = this.set(leaf.elems, leaf.value);
        if (why === null) result.applied++;
        else if (why !== 'ignored') result.malformed.push(`${pathText(leaf.elems)}: ${why}`);
      }
    }
    return result;
  }

  private remove(address: LeafAddress | string | null): void {
    if (address === null || typeof address === 'string') return;
    if (address.kind === 'whole-interface') this.byName.delete(address.interface);
    const r = this.byName.get(address.interface);
    if (!r) return;
    if (address.kind === 'queue') delete r.queues.get(address.queue)?.[address.leaf];
    else if (address.kind === 'neighbour') delete r.neighbours.get(address.neighbour)?.[address.leaf];
    else if (address.kind === 'interface') {
      if (address.leaf === 'operStatus') delete r.operStatus;
      else if (address.leaf === 'portSpeed') delete r.speedBitsPerSecond;
      else delete r.counters[address.leaf];
    }
  }

  /** null when applied, 'ignored' for a leaf fabscope does not read, else why the value was refused. */
  private set(elems: PathElem[], value: unknown): string | null {
    const address = addressOf(elems);
    if (address === null) return 'ignored';
    if (typeof address === 'string') return address;
    if (address.kind === 'whole-interface') return 'ignored';
    if (value === undefined) return 'no value';
    const r = this.reading(address.interface);
    if (!r) return `more than ${MAX_INTERFACES} interfaces`;
    if (address.kind === 'neighbour') {
      if (typeof value !== 'string' || value === '') return `not a name: ${show(value)}`;
      const neighbour = r.neighbours.get(address.neighbour) ?? {};
      neighbour[address.leaf] = value;
      r.neighbours.set(address.neighbour, neighbour);
      return null;
    }
    if (address.kind === 'queue') {
      const count = counterOf(value);
      if (count === null) return `not a counter64: ${show(value)}`;
      const queue = r.queues.get(address.queue) ?? {};
      queue[address.leaf] = count;
      r.queues.set(address.queue, queue);
      return null;
    }
    if (address.leaf === 'operStatus') {
      const status = operStatusOf(value);
      if (status === null) return `not an oper-status: ${show(value)}`;
      r.operStatus = status;
      return null;
    }
    if (address.leaf === 'portSpeed') {
      const speed = portSpeedOf(value);
      if (speed === null) return `not a port-speed identity: ${show(value)}`;
      r.speedBitsPerSecond = speed;
      return null;
    }
    const count = counterOf(value);
    if (count === null) return `not a counter64: ${show(value)}`;
    r.counters[address.leaf] = count;
    return null;
  }
}

function show(value: unknown): string {
  const text = typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  return (text ?? String(value)).slice(0, 60);
}

function pathText(elems: PathElem[]): string {
  return `/${elems
    .map(
      (e) =>
        e.name +
        Object.entries(e.key)
          .map(([k, v]) => `[${k}=${v}]`)
          .join(''),
    )
    .join('/')}`;
}
