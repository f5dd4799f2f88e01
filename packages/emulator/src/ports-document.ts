import { channelFrom, type Fabric, type FabricType, type NodeType } from '@fabscope/topology';
import { DATA_UNIT_BYTES } from './counters.ts';

/** The answer of `GET /v1/ports` (docs/architecture.md). */
export interface PortCountersDocument {
  fabric: string;
  fabricType: FabricType;
  /** The emulator clock (Unix ms in real-time mode). */
  timeMs: number;
  /** XmitData/RcvData unit: 8 (OPA flits), 4 (IB 4-octet words), 1 (Ethernet). */
  dataUnitBytes: number;
  ports: PortEntry[];
}

export interface PortEntry {
  nodeGuid: string;
  nodeName: string;
  nodeType: NodeType;
  portNumber: number;
  lid: number;
  rateGbps: number;
  linkState: 'active' | 'down';
  remote: { nodeGuid: string; nodeName: string; portNumber: number } | null;
  /** The network the port's cable belongs to (differs from the fabric's on a router's Ethernet NIC). */
  fabricType: FabricType;
  /** Unsigned 64-bit decimal strings, cumulative since the device started or the last clear. */
  counters: PortCounters;
}

/**
 * Counter names, as Omni-Path's PM (opapmaquery) names them; the InfiniBand PortCounters /
 * PortCountersExtended name (perfquery) in brackets:
 * XmitData [PortXmitData], RcvData [PortRcvData] in `dataUnitBytes` units; XmitPkts [PortXmitPkts],
 * RcvPkts [PortRcvPkts]; XmitWait [PortXmitWait] in ticks; SymbolErrors [SymbolErrorCounter; OPA:
 * LocalLinkIntegrityErrors]; LinkErrorRecovery [LinkErrorRecoveryCounter]; LinkDowned
 * [LinkDownedCounter]; RcvErrors [PortRcvErrors]; XmitDiscards [PortXmitDiscards]. All 64-bit.
 */
export const PORT_COUNTER_NAMES = [
  'XmitData',
  'RcvData',
  'XmitPkts',
  'RcvPkts',
  'XmitWait',
  'SymbolErrors',
  'LinkErrorRecovery',
  'LinkDowned',
  'RcvErrors',
  'XmitDiscards',
] as const;
export type PortCounterName = (typeof PORT_COUNTER_NAMES)[number];
export type PortCounters = Record<PortCounterName, string>;

/** Reads a port's counters (by the port's output channel) in PORT_COUNTER_NAMES order, in native units. */
export type PortCounterReader = (outChannel: number, into: bigint[]) => void;

interface PortSlot {
  entry: Omit<PortEntry, 'counters' | 'linkState'>;
  link: number;
  out: number;
}

/** Every cabled port of every node, in node then port order; the static part is computed once. */
export class PortsDocumentBuilder {
  private readonly slots: PortSlot[] = [];

  constructor(private readonly fabric: Fabric) {
    for (const node of fabric.nodes) {
      for (const port of node.ports) {
        if (!port || port.link < 0) continue;
        const out = channelFrom(fabric, node, port.number);
        const link = fabric.links[port.link];
        if (!link) continue;
        const far = out === link.index * 2 ? link.b : link.a;
        const remote = fabric.nodeByName.get(far.node);
        this.slots.push({
          entry: {
            nodeGuid: node.guid,
            nodeName: node.name,
            nodeType: node.type,
            portNumber: port.number,
            lid: port.lid,
            rateGbps: port.rateGbps,
            fabricType: link.fabricType ?? fabric.fabricType,
            remote: remote ? { nodeGuid: remote.guid, nodeName: remote.name, portNumber: far.port } : null,
          },
          link: link.index,
          out,
        });
      }
    }
  }

  build(timeMs: number, read: PortCounterReader, linkUp: Uint8Array): PortCountersDocument {
    const values: bigint[] = new Array(PORT_COUNTER_NAMES.length).fill(0n);
    const ports = this.slots.map((slot): PortEntry => {
      read(slot.out, values);
      const counters = {} as PortCounters;
      PORT_COUNTER_NAMES.forEach((name, i) => {
        counters[name] = (values[i] as bigint).toString();
      });
      return {
        ...slot.entry,
        remote: slot.entry.remote ? { ...slot.entry.remote } : null,
        linkState: linkUp[slot.link] === 1 ? 'active' : 'down',
        counters,
      };
    });
    return {
      fabric: this.fabric.name,
      fabricType: this.fabric.fabricType,
      timeMs,
      dataUnitBytes: DATA_UNIT_BYTES[this.fabric.fabricType],
      ports,
    };
  }
}
