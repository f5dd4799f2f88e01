import {
  bytesPerSecondOfRate,
  channelOf,
  type Fabric,
  type LinkKind,
  type PortRef,
} from '@fabscope/topology';
import { type PortRates, portKey, type RatesSnapshot } from '../store/types.ts';

/** One direction of one link, as the API reports it. Utilization is a fraction 0..1. */
export interface LinkDirectionState {
  id: string;
  linkId: string;
  kind: LinkKind;
  from: PortRef;
  to: PortRef;
  capacityBytesPerSecond: number;
  utilization: number | null;
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  /** XmitWait ticks per second at the sending port (congestion), when known. */
  transmitWaitTicksPerSecond: number | null;
  /**
   * Share of time (0..1) the sending port had data queued and no flow-control credit:
   * XmitWait ticks/s × the tick length. Null when either is unknown, never 0 for unknown.
   */
  transmitWaitFraction: number | null;
  /**
   * Whether the link is up: false when either end reports it down, true when an end reports it
   * active and none down, null when neither end reports a link state.
   */
  linkUp: boolean | null;
  stale: boolean;
}

export interface FabricSummary {
  time: string;
  hostTransmitBytesPerSecond: number | null;
  /** Counts of link directions per 10 % utilization bucket ([0,10) … [90,100]), as opatop. */
  histogram: { isl: number[]; host: number[] };
  staleLinks: number;
}

interface ChannelKeys {
  index: number;
  /** What never changes about the direction: ids, ends, kind, capacity. */
  fixed: Pick<LinkDirectionState, 'id' | 'linkId' | 'kind' | 'from' | 'to' | 'capacityBytesPerSecond'>;
  fromKey: string;
  toKey: string;
  fromIsHost: boolean;
}

/**
 * Channel → port keys and fixed fields, computed once per fabric so each tick is one pass that
 * only looks up rates (no id strings built per tick: 166k directions at 27,648 hosts).
 */
export class LinkIndex {
  readonly channels: ChannelKeys[] = [];

  constructor(readonly fabric: Fabric) {
    const guidOf = (name: string) => fabric.nodeByName.get(name)?.guid ?? '';
    for (let c = 0; c < fabric.links.length * 2; c++) {
      const channel = channelOf(fabric, c);
      this.channels.push({
        index: c,
        fixed: {
          id: channel.id,
          linkId: channel.link.id,
          kind: channel.link.kind,
          from: channel.from,
          to: channel.to,
          capacityBytesPerSecond: bytesPerSecondOfRate(channel.link.rateGbps),
        },
        fromKey: portKey(guidOf(channel.from.node), channel.from.port),
        toKey: portKey(guidOf(channel.to.node), channel.to.port),
        fromIsHost: fabric.nodeByName.get(channel.from.node)?.type !== 'switch',
      });
    }
  }
}

function maxKnown(a: number | null | undefined, b: number | null | undefined): number | null {
  const x = a ?? null;
  const y = b ?? null;
  if (x === null) return y;
  if (y === null) return x;
  return Math.max(x, y);
}

/** XmitWait ticks/s × tick seconds, clamped to 0..1; null when either is unknown. */
export function waitFraction(ticksPerSecond: number | null, tickSeconds: number | null): number | null {
  if (ticksPerSecond === null || tickSeconds === null) return null;
  if (!Number.isFinite(ticksPerSecond) || !Number.isFinite(tickSeconds) || !(tickSeconds > 0)) return null;
  return Math.min(1, Math.max(0, ticksPerSecond * tickSeconds));
}

/** A link is down when either end says so, up when an end says so and none says down. */
export function combineLinkUp(a: boolean | null | undefined, b: boolean | null | undefined): boolean | null {
  if (a === false || b === false) return false;
  if (a === true || b === true) return true;
  return null;
}

/**
 * Utilization of each link direction = max(Δtx at the sending port, Δrx at the receiving port)
 * / Δt / capacity — the Omni-Path performance manager's formula, which also covers a port whose
 * own counters are unreadable. Unknown stays null (stale), never 0.
 */
export function linkDirectionStates(index: LinkIndex, snapshot: RatesSnapshot): LinkDirectionState[] {
  return index.channels.map(({ fixed, fromKey, toKey }) => {
    const sender: PortRates | undefined = snapshot.ports.get(fromKey);
    const receiver: PortRates | undefined = snapshot.ports.get(toKey);
    const capacity = fixed.capacityBytesPerSecond;
    const bytes = maxKnown(sender?.transmitBytesPerSecond, receiver?.receiveBytesPerSecond);
    return {
      id: fixed.id,
      linkId: fixed.linkId,
      kind: fixed.kind,
      from: fixed.from,
      to: fixed.to,
      capacityBytesPerSecond: capacity,
      utilization: bytes === null ? null : Math.min(1, bytes / capacity),
      bytesPerSecond: bytes,
      packetsPerSecond: maxKnown(sender?.transmitPacketsPerSecond, receiver?.receivePacketsPerSecond),
      transmitWaitTicksPerSecond: sender?.transmitWaitTicksPerSecond ?? null,
      transmitWaitFraction: waitFraction(
        sender?.transmitWaitTicksPerSecond ?? null,
        sender?.transmitWaitTickSeconds ?? null,
      ),
      linkUp: combineLinkUp(sender?.linkUp, receiver?.linkUp),
      stale: bytes === null,
    };
  });
}

export function utilizationBucket(utilization: number): number {
  return Math.min(9, Math.max(0, Math.floor(utilization * 10)));
}

export function summarize(index: LinkIndex, states: LinkDirectionState[], timeMs: number): FabricSummary {
  const histogram = { isl: new Array<number>(10).fill(0), host: new Array<number>(10).fill(0) };
  let hostTransmit = 0;
  let hostKnown = 0;
  let staleLinks = 0;
  states.forEach((state, i) => {
    if (state.utilization === null) {
      staleLinks++;
      return;
    }
    const bucket = histogram[state.kind];
    bucket[utilizationBucket(state.utilization)] = (bucket[utilizationBucket(state.utilization)] ?? 0) + 1;
    if (index.channels[i]?.fromIsHost && state.bytesPerSecond !== null) {
      hostTransmit += state.bytesPerSecond;
      hostKnown++;
    }
  });
  return {
    time: new Date(timeMs).toISOString(),
    hostTransmitBytesPerSecond: hostKnown > 0 ? hostTransmit : null,
    histogram,
    staleLinks,
  };
}
