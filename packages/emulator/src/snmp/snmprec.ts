import type { Fabric, FabricNode } from '@fabscope/topology';

/** A port's traffic as a recording states it: counters at the recording's instant, and their rates from then on. */
export interface PortTraffic {
  outOctets: bigint;
  inOctets: bigint;
  outPackets: bigint;
  inPackets: bigint;
  /** Per second. */
  outOctetsRate: number;
  inOctetsRate: number;
  outPacketsRate: number;
  inPacketsRate: number;
  inErrors: bigint;
  outDiscards: bigint;
  up: boolean;
  /** A lossless Ethernet port's PFC pause frames and ECN marks; absent where the emulator counts none. */
  lossless?: LosslessTraffic;
}

/** PFC pause frames on the lossless priority (received: this port held back; sent: it held its peer back) and
 * the packets it ECN-marked as it sent them, with their rates per second. */
export interface LosslessTraffic {
  pauseReceived: bigint;
  pauseSent: bigint;
  ecnMarked: bigint;
  pauseReceivedRate: number;
  pauseSentRate: number;
  ecnMarkedRate: number;
}

export interface SwitchRecordingInput {
  fabric: Fabric;
  node: FabricNode;
  /** The traffic of a cabled port; undefined for one without a cable. */
  traffic: (port: number) => PortTraffic | undefined;
  /** The wall-clock instant (Unix ms) the counters are given at. */
  atMs: number;
  /** When the switch booted (Unix ms): sysUpTime counts from it. */
  bootMs: number;
}

const SYSTEM = '1.3.6.1.2.1.1';
const IF_ENTRY = '1.3.6.1.2.1.2.2.1';
const IFX_ENTRY = '1.3.6.1.2.1.31.1.1.1';
const LLDP_LOC = '1.0.8802.1.1.2.1.3';
const LLDP_REM_ENTRY = '1.0.8802.1.1.2.1.4.1.1';
/** IEEE8021-PFC-MIB ieee8021PfcIfEntry (augments ifEntry): 2 ieee8021PfcRequests, 3 ieee8021PfcIndications. */
const PFC_ENTRY = '1.3.111.2.802.1.1.21.1.1.1';
/** ARISTA-QOS-MIB aristaEcnQueueCounterEntry (ifIndex.queue): 3 …CounterEnabled, 4 aristaEcnQueuePktsMarked. */
const ECN_QUEUE_ENTRY = '1.3.6.1.4.1.30065.3.13.1.9.1';
/** The egress queue RoCE's lossless priority maps to (ROCE_PRIORITY, traffic class 3). */
const ROCE_QUEUE = 3;
/** snmprec tags (RFC 1902 types as snmpsim writes them). */
const TAG = {
  integer: '2',
  text: '4',
  hex: '4x',
  counter32: '65',
  gauge32: '66',
  ticks: '67',
  counter64: '70',
};
/** LLDP subtypes: chassis id macAddress(4), port id interfaceName(5). */
const CHASSIS_MAC = 4;
const PORT_IF_NAME = 5;
const GAUGE32_MAX = 4_294_967_295;

/** A switch's interface name, as Arista and Cisco NX-OS name theirs. */
export function switchPortName(port: number): string {
  return `Ethernet${port}`;
}

/** A host NIC's name, as lldpd on Linux sends it (port 1 is eth0). */
export function hostPortName(port: number): string {
  return `eth${port - 1}`;
}

/** A node's chassis MAC: the low 48 bits of its GUID, as hex. */
export function chassisMac(guid: string): string {
  return guid.replace(/^0x/, '').padStart(16, '0').slice(-12);
}

/** Counter32 values as an agent reports them: modulo 2^32. */
const counter32 = (value: bigint) => value % 4_294_967_296n;

/**
 * A counter that advances at `rate` per second from `value` at `atMs`: snmpsim's numeric module with absolute
 * time (`atime`), so the value follows the wall clock, whenever snmpsimd started; a still counter is a constant.
 */
function counter(tag: string, value: bigint, rate: number, atMs: number): string {
  if (!(rate > 0)) return `${tag}|${value}`;
  const initial = value - BigInt(Math.round((rate * atMs) / 1000));
  return `${tag}:numeric|rate=${rate},atime=1,initial=${initial}`;
}

/** A Counter32 at `rate` per second: snmpsim's numeric module wrapping at 2^32 as an agent's counter does. */
function counter32Rate(value: bigint, rate: number, atMs: number): string {
  if (!(rate > 0)) return `${TAG.counter32}|${counter32(value)}`;
  const initial = counter32(value) - BigInt(Math.round((rate * atMs) / 1000));
  return `${TAG.counter32}:numeric|rate=${rate},atime=1,wrap=1,initial=${initial}`;
}

/** A port's PFC and ECN rows: IEEE8021-PFC-MIB's per-interface frames, Arista's ECN marks on the RoCE queue. */
function losslessRows(
  put: (oid: string, value: string) => void,
  p: number,
  t: LosslessTraffic,
  atMs: number,
) {
  put(`${PFC_ENTRY}.2.${p}`, counter32Rate(t.pauseSent, t.pauseSentRate, atMs));
  put(`${PFC_ENTRY}.3.${p}`, counter32Rate(t.pauseReceived, t.pauseReceivedRate, atMs));
  put(`${ECN_QUEUE_ENTRY}.3.${p}.${ROCE_QUEUE}`, `${TAG.integer}|1`);
  put(`${ECN_QUEUE_ENTRY}.4.${p}.${ROCE_QUEUE}`, counter(TAG.counter64, t.ecnMarked, t.ecnMarkedRate, atMs));
}

function compareOids(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * One switch as an snmpsim recording: system group, IF-MIB ifTable and ifXTable for every port (HC counters
 * moving with the emulated traffic), PFC pause and ECN marks where the port is lossless, LLDP-MIB local ports and a remote entry per cabled port that is up.
 */
export function switchRecording(input: SwitchRecordingInput): string {
  const { fabric, node, atMs } = input;
  const rows: [number[], string][] = [];
  const put = (oid: string, value: string) => rows.push([oid.split('.').map(Number), `${oid}|${value}`]);
  const upTicks = BigInt(Math.max(0, Math.round((atMs - input.bootMs) / 10)));
  put(`${SYSTEM}.1.0`, `${TAG.text}|fabscope emulated Ethernet switch ${node.name}, ${node.portCount} ports`);
  put(`${SYSTEM}.3.0`, counter(TAG.ticks, upTicks, 100, atMs));
  put(`${SYSTEM}.5.0`, `${TAG.text}|${node.name}`);
  put(`${LLDP_LOC}.1.0`, `${TAG.integer}|${CHASSIS_MAC}`);
  put(`${LLDP_LOC}.2.0`, `${TAG.hex}|${chassisMac(node.guid)}`);
  put(`${LLDP_LOC}.3.0`, `${TAG.text}|${node.name}`);
  for (let p = 1; p <= node.portCount; p++) {
    const port = node.ports[p];
    const t = input.traffic(p);
    const gbps = port?.rateGbps ?? 0;
    const name = switchPortName(p);
    put(`${IF_ENTRY}.1.${p}`, `${TAG.integer}|${p}`);
    put(`${IF_ENTRY}.2.${p}`, `${TAG.text}|${name}`);
    put(`${IF_ENTRY}.3.${p}`, `${TAG.integer}|6`);
    put(`${IF_ENTRY}.5.${p}`, `${TAG.gauge32}|${Math.min(GAUGE32_MAX, gbps * 1e9)}`);
    put(`${IF_ENTRY}.8.${p}`, `${TAG.integer}|${t?.up ? 1 : 2}`);
    put(`${IF_ENTRY}.13.${p}`, `${TAG.counter32}|0`);
    put(`${IF_ENTRY}.14.${p}`, `${TAG.counter32}|${counter32(t?.inErrors ?? 0n)}`);
    put(`${IF_ENTRY}.19.${p}`, `${TAG.counter32}|${counter32(t?.outDiscards ?? 0n)}`);
    put(`${IF_ENTRY}.20.${p}`, `${TAG.counter32}|0`);
    put(`${IFX_ENTRY}.1.${p}`, `${TAG.text}|${name}`);
    put(`${IFX_ENTRY}.6.${p}`, counter(TAG.counter64, t?.inOctets ?? 0n, t?.inOctetsRate ?? 0, atMs));
    put(`${IFX_ENTRY}.7.${p}`, counter(TAG.counter64, t?.inPackets ?? 0n, t?.inPacketsRate ?? 0, atMs));
    put(`${IFX_ENTRY}.10.${p}`, counter(TAG.counter64, t?.outOctets ?? 0n, t?.outOctetsRate ?? 0, atMs));
    put(`${IFX_ENTRY}.11.${p}`, counter(TAG.counter64, t?.outPackets ?? 0n, t?.outPacketsRate ?? 0, atMs));
    put(`${IFX_ENTRY}.15.${p}`, `${TAG.gauge32}|${Math.round(gbps * 1000)}`);
    put(`${IFX_ENTRY}.18.${p}`, `${TAG.text}|${name}`);
    put(`${LLDP_LOC}.7.1.2.${p}`, `${TAG.integer}|${PORT_IF_NAME}`);
    put(`${LLDP_LOC}.7.1.3.${p}`, `${TAG.text}|${name}`);
    put(`${LLDP_LOC}.7.1.4.${p}`, `${TAG.text}|${name}`);
    if (t?.lossless) losslessRows(put, p, t.lossless, atMs);
    const link = port && port.link >= 0 ? fabric.links[port.link] : undefined;
    if (!link || !t?.up) continue;
    const far = link.a.node === node.name && link.a.port === p ? link.b : link.a;
    const farNode = fabric.nodeByName.get(far.node);
    if (!farNode) continue;
    const farPort = farNode.type === 'switch' ? switchPortName(far.port) : hostPortName(far.port);
    // lldpRemTable's index: lldpRemTimeMark (0), lldpRemLocalPortNum, lldpRemIndex.
    const rem = (column: number) => `${LLDP_REM_ENTRY}.${column}.0.${p}.1`;
    put(rem(4), `${TAG.integer}|${CHASSIS_MAC}`);
    put(rem(5), `${TAG.hex}|${chassisMac(farNode.guid)}`);
    put(rem(6), `${TAG.integer}|${PORT_IF_NAME}`);
    put(rem(7), `${TAG.text}|${farPort}`);
    put(rem(8), `${TAG.text}|${farPort}`);
    put(rem(9), `${TAG.text}|${far.node}`);
  }
  rows.sort((a, b) => compareOids(a[0], b[0]));
  return `${rows.map((r) => r[1]).join('\n')}\n`;
}
