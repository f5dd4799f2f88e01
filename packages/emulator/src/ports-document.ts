import { channelFrom, type Fabric, type FabricType, type NodeType } from '@fabscope/topology';
import { type ChannelCounters, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';

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
  /** Unsigned 64-bit decimal strings, cumulative since the device started. */
  counters: { XmitData: string; RcvData: string; XmitPkts: string; RcvPkts: string; XmitWait: string };
}

interface PortSlot {
  entry: Omit<PortEntry, 'counters' | 'linkState'>;
  link: number;
  out: number;
  in: number;
}

/** Every cabled port of every node, in node then port order; the static part is computed once. */
export class PortsDocumentBuilder {
  private readonly slots: PortSlot[] = [];
  private readonly unitBytes: bigint;
  private readonly packetBytes: bigint;

  constructor(private readonly fabric: Fabric) {
    this.unitBytes = BigInt(DATA_UNIT_BYTES[fabric.fabricType]);
    this.packetBytes = BigInt(PACKET_PAYLOAD_BYTES[fabric.fabricType]);
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
            remote: remote ? { nodeGuid: remote.guid, nodeName: remote.name, portNumber: far.port } : null,
          },
          link: link.index,
          out,
          in: out ^ 1,
        });
      }
    }
  }

  build(timeMs: number, counters: ChannelCounters, linkUp: Uint8Array): PortCountersDocument {
    const { bytes, waitTicks } = counters;
    const ports = this.slots.map((slot): PortEntry => {
      const sent = bytes[slot.out] as bigint;
      const received = bytes[slot.in] as bigint;
      return {
        ...slot.entry,
        remote: slot.entry.remote ? { ...slot.entry.remote } : null,
        linkState: linkUp[slot.link] === 1 ? 'active' : 'down',
        counters: {
          XmitData: (sent / this.unitBytes).toString(),
          RcvData: (received / this.unitBytes).toString(),
          XmitPkts: (sent / this.packetBytes).toString(),
          RcvPkts: (received / this.packetBytes).toString(),
          XmitWait: (waitTicks[slot.out] as bigint).toString(),
        },
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
