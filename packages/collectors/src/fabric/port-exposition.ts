import { escapeLabelValue, formatValue } from '../exposition/writer.ts';
import type { FabricSnapshot, PortSample } from './port-sample.ts';
import { type Shard, shardOfPort } from './shard.ts';

interface PortFamily {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  value: (p: PortSample) => number;
}

/** The fabric agent's port series (docs/metrics.md). Every series names both ends of its cable. */
export const PORT_FAMILIES: readonly PortFamily[] = [
  {
    name: 'fabscope_port_data_transmitted_bytes_total',
    type: 'counter',
    help: 'Data octets transmitted on the port',
    value: (p) => p.transmitBytes,
  },
  {
    name: 'fabscope_port_data_received_bytes_total',
    type: 'counter',
    help: 'Data octets received on the port',
    value: (p) => p.receiveBytes,
  },
  {
    name: 'fabscope_port_packets_transmitted_total',
    type: 'counter',
    help: 'Packets transmitted on the port',
    value: (p) => p.transmitPackets,
  },
  {
    name: 'fabscope_port_packets_received_total',
    type: 'counter',
    help: 'Packets received on the port',
    value: (p) => p.receivePackets,
  },
  {
    name: 'fabscope_port_transmit_wait_total',
    type: 'counter',
    help: 'Ticks during which the port had data to transmit but no flow-control credit (XmitWait)',
    value: (p) => p.transmitWaitTicks,
  },
  {
    name: 'fabscope_port_transmit_wait_tick_seconds',
    type: 'gauge',
    help: 'Length of one XmitWait tick, where the source knows it (rate(wait_total) × this = share of time waiting)',
    value: (p) => p.transmitWaitTickSeconds ?? Number.NaN,
  },
  {
    name: 'fabscope_port_symbol_error_total',
    type: 'counter',
    help: 'Minor link errors detected on the port (SymbolErrorCounter; Omni-Path LocalLinkIntegrityErrors)',
    value: (p) => p.errors?.symbolErrors ?? Number.NaN,
  },
  {
    name: 'fabscope_port_link_error_recovery_total',
    type: 'counter',
    help: 'Times the link completed error recovery (LinkErrorRecoveryCounter)',
    value: (p) => p.errors?.linkErrorRecovery ?? Number.NaN,
  },
  {
    name: 'fabscope_port_link_downed_total',
    type: 'counter',
    help: 'Times the link went down (LinkDownedCounter)',
    value: (p) => p.errors?.linkDowned ?? Number.NaN,
  },
  {
    name: 'fabscope_port_errors_received_total',
    type: 'counter',
    help: 'Packets with errors received on the port (PortRcvErrors)',
    value: (p) => p.errors?.receiveErrors ?? Number.NaN,
  },
  {
    name: 'fabscope_port_discards_transmitted_total',
    type: 'counter',
    help: 'Outbound packets discarded by the port (PortXmitDiscards)',
    value: (p) => p.errors?.transmitDiscards ?? Number.NaN,
  },
  {
    name: 'fabscope_port_rate_bytes_per_second',
    type: 'gauge',
    help: 'Data rate of the port link',
    value: (p) => p.rateBytesPerSecond,
  },
  {
    name: 'fabscope_port_link_up',
    type: 'gauge',
    help: '1 when the port link is active, 0 when it is down',
    value: (p) => (p.linkUp ? 1 : 0),
  },
];

/**
 * `remote_node_type` is the far end's type, from the snapshot's own ports (empty when the far end
 * reports none): with both types on every series, a link direction's kind (ISL or host link) is
 * known to PromQL, for the recorded per-direction series (deploy/prometheus/rules/recording.yml).
 */
function portLabelText(fabric: string, p: PortSample, typeOf: ReadonlyMap<string, string>): string {
  const remote = p.remote;
  return (
    `{fabric="${fabric}",node_guid="${escapeLabelValue(p.nodeGuid)}",node_name="${escapeLabelValue(p.nodeName)}",` +
    `node_type="${p.nodeType}",port="${p.portNumber}",` +
    `remote_node_guid="${remote ? escapeLabelValue(remote.nodeGuid) : ''}",` +
    `remote_node_name="${remote ? escapeLabelValue(remote.nodeName) : ''}",` +
    `remote_node_type="${remote ? (typeOf.get(remote.nodeGuid) ?? '') : ''}",` +
    `remote_port="${remote ? remote.portNumber : ''}"} `
  );
}

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** Writes a non-negative safe integer's decimal digits at `pos`; returns the new position. */
function writeUint(out: Buffer, pos: number, v: number): number {
  if (v < 10) {
    out[pos] = 48 + v;
    return pos + 1;
  }
  let digits = 0;
  for (let t = v; t >= 1; t = Math.floor(t / 10)) digits++;
  let end = pos + digits;
  for (let t = v; end > pos; t = Math.floor(t / 10)) out[--end] = 48 + (t % 10);
  return pos + digits;
}

/**
 * Writes the port series of a snapshot (the families in `names`, or all; the ports of `shard`, or
 * all) as exposition text into buffers of about 1 MiB, so a
 * fabric of 100k+ ports streams to the socket without one giant string. Values that are unknown
 * (NaN) are left out: absent, never 0. Hand-written because prom-client's per-label-set
 * bookkeeping is too slow at fabric size; the names and labels are the same.
 */
export function* portExpositionChunks(
  snapshot: FabricSnapshot,
  names?: ReadonlySet<string>,
  shard?: Shard,
  types: Map<string, string> = new Map(),
): Generator<Buffer> {
  const families = names ? PORT_FAMILIES.filter((f) => names.has(f.name)) : PORT_FAMILIES;
  if (families.length === 0) return;
  const fabric = escapeLabelValue(snapshot.fabric);
  // Types seen in this snapshot (and, in `types`, earlier ones): a far end whose read failed keeps
  // its type, so the label does not flip to "" and back (a new series each time).
  const typeOf = types;
  for (const p of snapshot.ports) {
    typeOf.set(p.nodeGuid, p.nodeType);
    if (p.remote?.nodeType) typeOf.set(p.remote.nodeGuid, p.remote.nodeType);
  }
  // A shard writes its own switch group's ports (shard.ts); the far ends' types come from all.
  const ports =
    shard && shard.count > 1
      ? snapshot.ports.filter((p) => shardOfPort(p, shard.count) === shard.index)
      : snapshot.ports;
  const labels = ports.map((p) => Buffer.from(portLabelText(fabric, p, typeOf), 'utf8'));
  let out = Buffer.allocUnsafe(CHUNK_BYTES);
  let pos = 0;
  for (const family of families) {
    const { value } = family;
    const name = Buffer.from(family.name, 'latin1');
    let header = false;
    for (let i = 0; i < ports.length; i++) {
      const v = value(ports[i] as PortSample);
      if (!Number.isFinite(v)) continue;
      const label = labels[i] as Buffer;
      // room for the header, name, labels and a value of at most 24 characters
      if (pos + 512 + name.length + label.length > out.length) {
        yield out.subarray(0, pos);
        out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, 1024 + label.length));
        pos = 0;
      }
      if (!header) {
        pos += out.write(
          `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n`,
          pos,
          'utf8',
        );
        header = true;
      }
      pos += name.copy(out, pos);
      pos += label.copy(out, pos);
      pos =
        Number.isSafeInteger(v) && v >= 0
          ? writeUint(out, pos, v)
          : pos + out.write(formatValue(v), pos, 'latin1');
      out[pos++] = NEWLINE;
    }
  }
  if (pos > 0) yield out.subarray(0, pos);
}
