import { FABRIC_TYPES } from '@fabscope/contracts/names';
import {
  PORT_COUNTER_NAMES,
  type PortCounterName,
  type PortCounters,
  type PortCountersDocument,
  type PortEntry,
} from '@fabscope/contracts/ports';
import { channelFrom, type Fabric, type FabricType } from '@fabscope/topology';
import { DATA_UNIT_BYTES } from './counters.ts';
import { PortsArrowEncoder } from './ports-arrow.ts';

// The emulator's `GET /v1/ports` as objects, as JSON straight into buffers, or as Arrow (ports-arrow.ts).

const OPA_ONLY = new Set<PortCounterName>([
  'UncorrectableErrors',
  'FMConfigErrors',
  'LinkQualityIndicator',
  'LinkWidthDowngrade',
]);
const IB_ONLY = new Set<PortCounterName>(['VL15Dropped']);

/** Positions in PORT_COUNTER_NAMES of the counters a port of this fabric type has. */
function countersOf(fabricType: FabricType): number[] {
  const keep = (name: PortCounterName): boolean => {
    if (fabricType === 'omnipath') return !IB_ONLY.has(name);
    if (fabricType === 'infiniband') return !OPA_ONLY.has(name);
    // RoCE ports: the data counters, XmitWait and the basic PortCounters errors.
    return PORT_COUNTER_NAMES.indexOf(name) <= PORT_COUNTER_NAMES.indexOf('XmitDiscards');
  };
  return PORT_COUNTER_NAMES.flatMap((name, i) => (keep(name) ? [i] : []));
}

/** Reads a port's counters (by the port's output channel) in PORT_COUNTER_NAMES order, in native units. */
export type PortCounterReader = (outChannel: number, into: bigint[]) => void;

interface PortSlot {
  entry: Omit<PortEntry, 'counters' | 'linkState'>;
  link: number;
  out: number;
}

const CHUNK_BYTES = 1024 * 1024;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const ACTIVE = Buffer.from('"linkState":"active","counters":{');
const DOWN = Buffer.from('"linkState":"down","counters":{');
/** `"XmitData":"`, `","RcvData":"`, …: what comes before each counter's digits. */
const COUNTER_KEYS = PORT_COUNTER_NAMES.map((name, i) => Buffer.from(`${i === 0 ? '' : '",'}"${name}":"`));
const SHOWN = Object.fromEntries(FABRIC_TYPES.map((t) => [t, countersOf(t)])) as Record<FabricType, number[]>;
const PORT_END = Buffer.from('"}}');

/** Writes a non-negative safe integer's decimal digits at `pos`; returns the new position. */
function writeUint(out: Buffer, pos: number, v: number): number {
  let digits = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  let end = pos + digits;
  for (let t = v; end > pos; t = Math.floor(t / 10)) out[--end] = 48 + (t % 10);
  return pos + digits;
}

/** Every cabled port of every node, in node then port order; the static part is computed once. */
export class PortsDocumentBuilder {
  private readonly slots: PortSlot[] = [];
  /** Per slot, the JSON of its fixed fields: `{"nodeGuid":…,"remote":…,` (made on first use). */
  private prefixes: Buffer[] | undefined;
  /** The Arrow form's fixed columns, and how many ports show each counter (made on first use). */
  private arrow: PortsArrowEncoder | undefined;
  private shownBy: number[] | undefined;

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
      for (const i of SHOWN[slot.entry.fabricType]) {
        counters[PORT_COUNTER_NAMES[i] as PortCounterName] = (values[i] as bigint).toString();
      }
      return {
        ...slot.entry,
        remote: slot.entry.remote ? { ...slot.entry.remote } : null,
        linkState: linkUp[slot.link] === 1 ? 'active' : 'down',
        counters,
      };
    });
    return { ...this.head(timeMs), ports };
  }

  /** The document's fields beside its ports. */
  private head(timeMs: number): Omit<PortCountersDocument, 'ports'> {
    const { name, fabricType } = this.fabric;
    return { fabric: name, fabricType, timeMs, dataUnitBytes: DATA_UNIT_BYTES[fabricType] };
  }

  /** `build` as an Arrow IPC stream (ports-arrow.ts). */
  buildArrow(timeMs: number, read: PortCounterReader, linkUp: Uint8Array): Uint8Array {
    this.arrow ??= new PortsArrowEncoder(this.slots.map((s) => s.entry));
    const n = this.slots.length;
    const counters = PORT_COUNTER_NAMES.map(() => new BigUint64Array(n));
    // Per counter: null when every port has it, a mask when some do, undefined when none.
    this.shownBy ??= PORT_COUNTER_NAMES.map(
      (_, k) => this.slots.filter((slot) => SHOWN[slot.entry.fabricType].includes(k)).length,
    );
    const present = this.shownBy.map((count) =>
      count === n ? null : count === 0 ? undefined : new Uint8Array(n),
    );
    const up = new Int8Array(n);
    const values: bigint[] = new Array(PORT_COUNTER_NAMES.length).fill(0n);
    this.slots.forEach((slot, i) => {
      read(slot.out, values);
      up[i] = linkUp[slot.link] === 1 ? 1 : 0;
      for (const k of SHOWN[slot.entry.fabricType]) {
        (counters[k] as BigUint64Array)[i] = values[k] as bigint;
        const mask = present[k];
        if (mask) mask[i] = 1;
      }
    });
    return this.arrow.encode(this.head(timeMs), up, counters, present);
  }

  /** `build` as JSON chunks, each port's fixed fields serialized once, so a scrape writes only counters. */
  buildJson(timeMs: number, read: PortCounterReader, linkUp: Uint8Array): Buffer[] {
    this.prefixes ??= this.slots.map((slot) => {
      const fixed = JSON.stringify(slot.entry);
      return Buffer.from(`${fixed.slice(0, -1)},`);
    });
    const head = JSON.stringify(this.head(timeMs));
    const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"ports":[`)];
    const values: bigint[] = new Array(PORT_COUNTER_NAMES.length).fill(0n);
    let out = Buffer.allocUnsafe(CHUNK_BYTES);
    let pos = 0;
    this.slots.forEach((slot, i) => {
      const prefix = this.prefixes?.[i] as Buffer;
      // room for the prefix, the state and every counter (name and at most 20 digits)
      if (pos + prefix.length + 1024 > out.length) {
        chunks.push(out.subarray(0, pos));
        out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, prefix.length + 2048));
        pos = 0;
      }
      if (i > 0) out[pos++] = 0x2c; // ,
      pos += prefix.copy(out, pos);
      pos += (linkUp[slot.link] === 1 ? ACTIVE : DOWN).copy(out, pos);
      read(slot.out, values);
      for (const k of SHOWN[slot.entry.fabricType]) {
        pos += (COUNTER_KEYS[k] as Buffer).copy(out, pos);
        const v = values[k] as bigint;
        pos = v <= MAX_SAFE ? writeUint(out, pos, Number(v)) : pos + out.write(v.toString(), pos, 'latin1');
      }
      pos += PORT_END.copy(out, pos);
    });
    pos += out.write(']}', pos, 'latin1');
    chunks.push(out.subarray(0, pos));
    return chunks;
  }
}
