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
  fromKey: string;
  toKey: string;
  fromIsHost: boolean;
}

/** Channel → port keys, computed once per fabric so each tick is a pass over arrays. */
export class LinkIndex {
  readonly channels: ChannelKeys[] = [];

  constructor(readonly fabric: Fabric) {
    const guidOf = (name: string) => fabric.nodeByName.get(name)?.guid ?? '';
    for (let c = 0; c < fabric.links.length * 2; c++) {
      const channel = channelOf(fabric, c);
      this.channels.push({
        index: c,
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

/**
 * Utilization of each link direction = max(Δtx at the sending port, Δrx at the receiving port)
 * / Δt / capacity — the Omni-Path performance manager's formula, which also covers a port whose
 * own counters are unreadable. Unknown stays null (stale), never 0.
 */
export function linkDirectionStates(index: LinkIndex, snapshot: RatesSnapshot): LinkDirectionState[] {
  const { fabric } = index;
  return index.channels.map(({ index: c, fromKey, toKey }) => {
    const channel = channelOf(fabric, c);
    const sender: PortRates | undefined = snapshot.ports.get(fromKey);
    const receiver: PortRates | undefined = snapshot.ports.get(toKey);
    const capacity = bytesPerSecondOfRate(channel.link.rateGbps);
    const bytes = maxKnown(sender?.transmitBytesPerSecond, receiver?.receiveBytesPerSecond);
    return {
      id: channel.id,
      linkId: channel.link.id,
      kind: channel.link.kind,
      from: channel.from,
      to: channel.to,
      capacityBytesPerSecond: capacity,
      utilization: bytes === null ? null : Math.min(1, bytes / capacity),
      bytesPerSecond: bytes,
      packetsPerSecond: maxKnown(sender?.transmitPacketsPerSecond, receiver?.receivePacketsPerSecond),
      transmitWaitTicksPerSecond: sender?.transmitWaitTicksPerSecond ?? null,
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
