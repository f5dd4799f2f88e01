import { PORT_COUNTER_FAMILIES, PORT_SERIES } from '@fabscope/contracts/metrics';
import { ERROR_COUNTER_KEYS, ERROR_COUNTERS } from '../fabric/error-counters.ts';
import type { FabricSnapshot, PortSample } from '../fabric/port-sample.ts';
import { type Shard, shardOfPort } from '../fabric/shard.ts';
import { ChunkWriter } from './chunk-writer.ts';
import { escapeLabelValue } from './writer.ts';

export interface PortFamily {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  value: (p: PortSample) => number;
  /** `sender`: keyed by the far (sending) end, cabled ports only; `info`: the full description; default: the port's key. */
  labelledBy?: 'sender' | 'info';
  /** A raw counter, or a gauge that only serves to rate one: the edge rates stand for it (`rawCounters`). */
  raw?: true;
}

/** A `raw` family: a counter unless `type` says gauge. */
const raw = (
  name: string,
  help: string,
  value: (p: PortSample) => number,
  type: PortFamily['type'] = 'counter',
): PortFamily => ({ name, type, help, value, raw: true });

/** The fabric agent's port series (docs/metrics.md); names and far end live in one info series per port. */
export const PORT_FAMILIES: readonly PortFamily[] = [
  {
    name: PORT_SERIES.info,
    type: 'gauge',
    help: "Always 1: the port's node name and type and the node, type and port at the far end of its cable (empty when uncabled)",
    value: () => 1,
    labelledBy: 'info',
  },
  raw(PORT_COUNTER_FAMILIES.transmitBytes, 'Data octets transmitted on the port', (p) => p.transmitBytes),
  raw(PORT_COUNTER_FAMILIES.receiveBytes, 'Data octets received on the port', (p) => p.receiveBytes),
  // Keyed by its sender's port, so a rule matches tx and rx of a direction without label_replace.
  {
    ...raw(
      PORT_SERIES.linkReceiveBytes,
      'Data octets received at the far end of the link direction whose sending port this series names',
      (p) => p.receiveBytes,
    ),
    labelledBy: 'sender',
  },
  raw(PORT_COUNTER_FAMILIES.transmitPackets, 'Packets transmitted on the port', (p) => p.transmitPackets),
  raw(PORT_COUNTER_FAMILIES.receivePackets, 'Packets received on the port', (p) => p.receivePackets),
  raw(
    PORT_COUNTER_FAMILIES.transmitWait,
    'Ticks during which the port had data to transmit but no flow-control credit (XmitWait)',
    (p) => p.transmitWaitTicks,
  ),
  raw(
    PORT_SERIES.waitTickSeconds,
    'Length of one XmitWait tick, where the source knows it (rate(wait_total) × this = share of time waiting)',
    (p) => p.transmitWaitTickSeconds ?? Number.NaN,
    'gauge',
  ),
  ...ERROR_COUNTER_KEYS.map((key) => {
    const { family, type, help } = ERROR_COUNTERS[key];
    return raw(family, help, (p) => p.errors?.[key] ?? Number.NaN, type);
  }),
  raw(PORT_SERIES.rateBytesPerSecond, 'Data rate of the port link', (p) => p.rateBytesPerSecond, 'gauge'),
  {
    name: PORT_SERIES.linkUp,
    type: 'gauge',
    help: '1 when the port link is active, 0 when it is down',
    value: (p) => (p.linkUp ? 1 : 0),
  },
  // In the optional set with the raw families: a series per port on a big fabric, read by the port page only.
  raw(
    PORT_SERIES.physicalState,
    "The port's PortInfo:PortPhysicalState (1 Sleep, 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, 6 LinkErrorRecovery, 7 PhyTest), where the source reads it",
    (p) => p.physicalState ?? Number.NaN,
    'gauge',
  ),
];

/** A port's key labels; `remote_node_type` (absent when uncabled or unknown) tells PromQL a link's kind. */
function keyText(
  fabric: string,
  guid: string,
  port: number,
  type: string,
  remoteType: string | undefined,
): string {
  const remote = remoteType ? `,remote_node_type="${remoteType}"` : '';
  return `{fabric="${fabric}",node_guid="${escapeLabelValue(guid)}",port="${port}",node_type="${type}"${remote}} `;
}

/** The key of the direction arriving at `p`: its sending port and type; null when not cabled. */
function senderLabelText(fabric: string, p: PortSample, typeOf: ReadonlyMap<string, string>): string | null {
  const remote = p.remote;
  if (!remote) return null;
  return keyText(fabric, remote.nodeGuid, remote.portNumber, typeOf.get(remote.nodeGuid) ?? '', p.nodeType);
}

function portLabelText(fabric: string, p: PortSample, typeOf: ReadonlyMap<string, string>): string {
  const remoteType = p.remote ? typeOf.get(p.remote.nodeGuid) : undefined;
  return keyText(fabric, p.nodeGuid, p.portNumber, p.nodeType, remoteType);
}

/** The port's full description, for `fabscope_port_info`. */
function infoLabelText(fabric: string, p: PortSample, typeOf: ReadonlyMap<string, string>): string {
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

/** The label sets of one scrape's ports (its shard's), made once and shared by every family. */
export class PortLabels {
  /** The snapshot's ports this collector writes (its shard's), in snapshot order. */
  readonly ports: PortSample[];
  /** Index of each of `ports` in the snapshot. */
  readonly indices: Int32Array;
  readonly fabric: string;
  private readonly key: (Buffer | undefined)[] = [];
  private readonly sender: (Buffer | null | undefined)[] = [];
  private readonly info: (Buffer | undefined)[] = [];

  constructor(
    readonly snapshot: FabricSnapshot,
    readonly shard: Shard | undefined,
    /** Node GUID → type, kept across scrapes. */
    readonly typeOf: Map<string, string>,
  ) {
    this.fabric = escapeLabelValue(snapshot.fabric);
    // Kept across snapshots: a far end whose read failed keeps its type, not a new series without it.
    for (const p of snapshot.ports) {
      typeOf.set(p.nodeGuid, p.nodeType);
      if (p.remote?.nodeType) typeOf.set(p.remote.nodeGuid, p.remote.nodeType);
    }
    const all = snapshot.ports;
    const indices: number[] = [];
    for (let i = 0; i < all.length; i++) {
      if (!shard || shard.count <= 1 || shardOfPort(all[i] as PortSample, shard.count) === shard.index)
        indices.push(i);
    }
    this.indices = Int32Array.from(indices);
    this.ports = indices.length === all.length ? all : indices.map((i) => all[i] as PortSample);
  }

  private cached<T extends Buffer | null>(
    cache: (T | undefined)[],
    i: number,
    text: (fabric: string, p: PortSample, typeOf: ReadonlyMap<string, string>) => string | null,
  ): T {
    let b = cache[i];
    if (b === undefined) {
      const t = text(this.fabric, this.ports[i] as PortSample, this.typeOf);
      b = (t === null ? null : Buffer.from(t, 'utf8')) as T;
      cache[i] = b;
    }
    return b;
  }

  /** Key labels (`{fabric,node_guid,port,node_type[,remote_node_type]} `) of the i-th of `ports`. */
  keyOf(i: number): Buffer {
    return this.cached<Buffer>(this.key, i, portLabelText);
  }

  /** Key labels of the direction arriving at the i-th of `ports` (its sender's); null uncabled. */
  senderOf(i: number): Buffer | null {
    return this.cached<Buffer | null>(this.sender, i, senderLabelText);
  }

  /** Full description labels of the i-th of `ports`. */
  infoOf(i: number): Buffer {
    return this.cached<Buffer>(this.info, i, infoLabelText);
  }
}

/**
 * Writes the port series of `families` for the ports of `labels`; unknown (NaN) values are left
 * out. Counters carry their read time; gauges do not, so Prometheus marks them stale when a port goes.
 */
export function* writePortFamilies(
  labels: PortLabels,
  families: readonly PortFamily[],
  out: ChunkWriter,
): Generator<Buffer> {
  const { ports, snapshot } = labels;
  const counterTimestamp =
    snapshot.countersReadAtMs === undefined ? null : Buffer.from(` ${snapshot.countersReadAtMs}`, 'latin1');
  // A port read at its own instant carries it (made once per write, shared by its counter families).
  const ownTimestamps: (Buffer | undefined)[] = [];
  const timestampOf = (i: number): Buffer | null => {
    const own = (ports[i] as PortSample).countersReadAtMs;
    if (own === undefined) return counterTimestamp;
    ownTimestamps[i] ??= Buffer.from(` ${Math.round(own)}`, 'latin1');
    return ownTimestamps[i];
  };
  for (const family of families) {
    const { value } = family;
    const counter = family.type === 'counter';
    const name = out.header(family);
    const labelOf =
      family.labelledBy === 'info'
        ? (i: number) => labels.infoOf(i)
        : family.labelledBy === 'sender'
          ? (i: number) => labels.senderOf(i)
          : (i: number) => labels.keyOf(i);
    for (let i = 0; i < ports.length; i++) {
      const v = value(ports[i] as PortSample);
      if (!Number.isFinite(v)) continue;
      const label = labelOf(i);
      if (!label) continue;
      out.sample(name, label, v, counter ? timestampOf(i) : null);
      if (out.ready.length > 0) yield* out.drain();
    }
  }
}

/** A snapshot's port series (those in `names`, the ports of `shard`) as exposition text in ~1 MiB buffers. */
export function* portExpositionChunks(
  snapshot: FabricSnapshot,
  names?: ReadonlySet<string>,
  shard?: Shard,
  types: Map<string, string> = new Map(),
): Generator<Buffer> {
  const families = names ? PORT_FAMILIES.filter((f) => names.has(f.name)) : PORT_FAMILIES;
  if (families.length === 0) return;
  const out = new ChunkWriter();
  yield* writePortFamilies(new PortLabels(snapshot, shard, types), families, out);
  yield* out.end();
}
