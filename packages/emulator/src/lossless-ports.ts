import type { NodeType } from '@fabscope/contracts/names';
import { channelOf, type Fabric } from '@fabscope/topology';
import type { LosslessState } from './lossless.ts';
import { type LosslessCounters, type LosslessPortCounters, ROCE_PRIORITY } from './lossless-counters.ts';
import { COUNTER_COUNT, DISCARDS, type PortCounterBank } from './port-counters.ts';
import type { PathFinder } from './routing/paths.ts';

/** One Ethernet port's congestion counters, as a switch's QoS counters (or a NIC's `ethtool -S`) show them. */
export interface EthernetPortCounters extends LosslessPortCounters {
  nodeName: string;
  nodeGuid: string;
  nodeType: NodeType;
  portNumber: number;
  /** The lossless priority the pause counters are of. */
  priority: number;
  /** Packets the port dropped on transmit (XmitDiscards; none on the lossless priority). */
  discards: bigint;
}

/** Every cabled port on an Ethernet link, in node then port order. */
export function ethernetPorts(
  fabric: Fabric,
  finder: PathFinder,
  lossless: LosslessCounters,
  ports: PortCounterBank,
): EthernetPortCounters[] {
  const list: EthernetPortCounters[] = [];
  const counters: bigint[] = new Array(COUNTER_COUNT);
  for (const node of fabric.nodes) {
    for (const out of finder.outputs(node.index)) {
      const link = fabric.links[out >> 1];
      if ((link?.fabricType ?? fabric.fabricType) !== 'ethernet') continue;
      ports.readPort(out, counters);
      list.push({
        nodeName: node.name,
        nodeGuid: node.guid,
        nodeType: node.type,
        portNumber: finder.channelFromPort[out] as number,
        priority: ROCE_PRIORITY,
        ...lossless.read(out),
        discards: counters[DISCARDS] as bigint,
      });
    }
  }
  return list;
}

/** Where lossless Ethernet congests now: the full buffers and the channels their PFC pause holds back. */
export interface LosslessCongestion {
  /** Link directions whose buffer is full: offered over drained (> 1). */
  full: { link: string; overload: number }[];
  /** Link directions held back by pause, the share of time paused, and the full buffer they are paused for. */
  paused: { link: string; share: number; pausedFor: string }[];
}

export function losslessCongestion(fabric: Fabric, state: LosslessState | null): LosslessCongestion {
  const result: LosslessCongestion = { full: [], paused: [] };
  if (!state) return result;
  const id = (c: number) => channelOf(fabric, c).id;
  state.overload.forEach((overload, c) => {
    if (overload > 0) result.full.push({ link: id(c), overload });
  });
  state.pauseOrigin.forEach((origin, c) => {
    if (origin >= 0)
      result.paused.push({ link: id(c), share: state.pausedShare[c] as number, pausedFor: id(origin) });
  });
  return result;
}
