import { PORT_COUNTER_NAMES, type PortCounterName } from '@fabscope/contracts/ports';
import type { FabricType } from '@fabscope/topology';
import type { HostPortTelemetry, HostTelemetry } from '../emulator-types.ts';
import { ROCE_PRIORITY } from '../lossless-counters.ts';
import type { SysfsFiles } from './atomic-files.ts';

/**
 * `counters/` files: the counter each shows (data in 4-octet words, none for the multicast ones) and the
 * basic PortCounters width it saturates at; the last four only on InfiniBand adapters.
 */
const COUNTER_FILES = (
  [
    ['port_xmit_data', 'XmitData'],
    ['port_rcv_data', 'RcvData'],
    ['port_xmit_packets', 'XmitPkts'],
    ['port_rcv_packets', 'RcvPkts'],
    ['port_xmit_wait', 'XmitWait', 0xffffffffn],
    ['symbol_error', 'SymbolErrors', 0xffffn],
    ['link_error_recovery', 'LinkErrorRecovery', 0xffn],
    ['link_downed', 'LinkDowned', 0xffn],
    ['port_rcv_errors', 'RcvErrors', 0xffffn],
    ['port_xmit_discards', 'XmitDiscards', 0xffffn],
    ['port_rcv_remote_physical_errors', 'RcvRemotePhysicalErrors', 0xffffn],
    ['port_rcv_switch_relay_errors', 'RcvSwitchRelayErrors', 0xffffn],
    ['port_xmit_constraint_errors', 'XmitConstraintErrors', 0xffn],
    ['port_rcv_constraint_errors', 'RcvConstraintErrors', 0xffn],
    ['local_link_integrity_errors', 'LocalLinkIntegrityErrors', 0xfn],
    ['excessive_buffer_overrun_errors', 'ExcessiveBufferOverruns', 0xfn],
    ['VL15_dropped', 'VL15Dropped', 0xffffn],
    ['unicast_xmit_packets', 'XmitPkts'],
    ['unicast_rcv_packets', 'RcvPkts'],
    ['multicast_xmit_packets', null],
    ['multicast_rcv_packets', null],
  ] as const satisfies readonly (readonly [string, PortCounterName | null, bigint?])[]
).map(([file, name, max]) => ({ file, k: name === null ? -1 : PORT_COUNTER_NAMES.indexOf(name), max }));
const IB_ONLY_FILES = 4;
const IP_MTU: Record<FabricType, number> = { omnipath: 10236, infiniband: 4092, ethernet: 9000 };

/** `100 Gb/sec (4X EDR)`: the kernel's rate file, width and speed from the data rate. */
export function rateText(rateGbps: number): string {
  const known: Record<number, string> = {
    2.5: '1X SDR',
    10: '4X SDR',
    20: '4X DDR',
    25: '1X EDR',
    40: '4X QDR',
    56: '4X FDR',
    50: '2X EDR',
    100: '4X EDR',
    200: '4X HDR',
    400: '4X NDR',
  };
  return `${rateGbps} Gb/sec${known[rateGbps] ? ` (${known[rateGbps]})` : ''}`;
}

function guidText(guid: string): string {
  const hex = guid.replace(/^0x/, '').padStart(16, '0');
  return `${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}:${hex.slice(12, 16)}`;
}

/** A port with its device and netdev names. */
export interface NamedPort {
  port: HostPortTelemetry;
  device: string;
  netdev: string;
}

/** Each port's device (`hfi1_N`, `mlx5_N`) and netdev (`ibN`, `ethN`) name. */
export function namePorts(host: HostTelemetry): NamedPort[] {
  let hfi = 0;
  let mlx = 0;
  let ib = 0;
  let eth = 0;
  return host.ports.map((port) => {
    const device = port.network === 'omnipath' ? `hfi1_${hfi++}` : `mlx5_${mlx++}`;
    const netdev = port.network === 'ethernet' ? `eth${eth++}` : `ib${ib++}`;
    return { port, device, netdev };
  });
}

/** One host's `sys/class/infiniband` and `sys/class/net` trees, and its RoCE ports' counters. */
export function writeClasses(files: SysfsFiles, host: HostTelemetry, ports: NamedPort[]): void {
  for (const named of ports) {
    writeDevice(files, host, named);
    writeNetDevice(files, host.name, named);
    if (named.port.network === 'ethernet') writeRoce(files, host.name, named);
  }
}

/** The emulated RoCE transport loses nothing (PFC), so its loss and retransmission counters stay 0. */
const ROCE_ZERO_HW_COUNTERS = [
  'out_of_buffer',
  'out_of_sequence',
  'packet_seq_err',
  'local_ack_timeout_err',
  'rnr_nak_retry_err',
  'implied_nak_seq_err',
  'duplicate_request',
  'rp_cnp_ignored',
];

/**
 * mlx5's names: `hw_counters/` (the congestion ones as firmware that allows congestion queries shows them), the
 * netdev in `gid_attrs/ndevs/0`, and `ethtool -S` as a file beside `sys/` (`<host>/ethtool/<netdev>`) with the
 * per-priority pause counters of the lossless priority.
 */
function writeRoce(files: SysfsFiles, host: string, { port, device, netdev }: NamedPort): void {
  const p = `${host}/sys/class/infiniband/${device}/ports/1`;
  files.put(`${p}/gid_attrs/ndevs/0`, `${netdev}\n`);
  files.put(`${p}/hw_counters/lifespan`, '10\n');
  for (const file of ROCE_ZERO_HW_COUNTERS) files.put(`${p}/hw_counters/${file}`, '0\n');
  const l = port.lossless;
  if (!l) return;
  files.put(`${p}/hw_counters/np_cnp_sent`, `${l.cnpSent}\n`);
  files.put(`${p}/hw_counters/rp_cnp_handled`, `${l.cnpHandled}\n`);
  files.put(`${p}/hw_counters/np_ecn_marked_roce_packets`, `${l.ecnMarkedReceived}\n`);
  const prio = ROCE_PRIORITY;
  const stats = [
    [`rx_prio${prio}_pause`, l.rxPauseFrames],
    [`rx_prio${prio}_pause_duration`, l.rxPauseMicroseconds],
    [`tx_prio${prio}_pause`, l.txPauseFrames],
    [`tx_prio${prio}_pause_duration`, l.txPauseMicroseconds],
  ];
  const lines = stats.map(([name, value]) => `     ${name}: ${value}\n`).join('');
  files.put(`${host}/ethtool/${netdev}`, `NIC statistics:\n${lines}`);
}

function writeDevice(files: SysfsFiles, host: HostTelemetry, { port, device }: NamedPort): void {
  const dev = `${host.name}/sys/class/infiniband/${device}`;
  const opa = port.network === 'omnipath';
  files.put(`${dev}/node_guid`, `${guidText(port.guid)}\n`);
  files.put(`${dev}/sys_image_guid`, `${guidText(host.guid)}\n`);
  files.put(`${dev}/node_desc`, `${host.description} ${device}\n`);
  files.put(`${dev}/node_type`, '1: CA\n');
  files.put(`${dev}/fw_ver`, opa ? '1.27.0\n' : '16.35.2000\n');
  files.put(
    `${dev}/board_id`,
    opa ? 'Intel Omni-Path Host Fabric Interface Adapter 100 Series\n' : 'MT_0000000008\n',
  );
  files.put(
    `${dev}/hca_type`,
    opa ? 'Intel Omni-Path Host Fabric Interface Adapter 100 Series\n' : 'MT4119\n',
  );
  const p = `${dev}/ports/1`;
  files.put(`${p}/rate`, `${rateText(port.rateGbps)}\n`);
  files.put(`${p}/state`, port.linkUp ? '4: ACTIVE\n' : '1: DOWN\n');
  files.put(`${p}/phys_state`, port.linkUp ? '5: LinkUp\n' : '2: Polling\n');
  files.put(`${p}/link_layer`, port.network === 'ethernet' ? 'Ethernet\n' : 'InfiniBand\n');
  files.put(`${p}/lid`, `0x${port.lid.toString(16)}\n`);
  files.put(`${p}/lid_mask_count`, '0\n');
  const shown = opa ? COUNTER_FILES.slice(0, -IB_ONLY_FILES) : COUNTER_FILES;
  for (const { file, k, max } of shown) {
    const value = k < 0 ? 0n : (port.counters[k] as bigint) / (file.endsWith('_data') ? 4n : 1n);
    files.put(`${p}/counters/${file}`, `${max !== undefined && value > max ? max : value}\n`);
  }
}

/** IP traffic only (RDMA bypasses the kernel's network stack), counted since the host booted. */
function writeNetDevice(files: SysfsFiles, base: string, { port, netdev }: NamedPort): void {
  const net = `${base}/sys/class/net/${netdev}`;
  const stats: Record<string, bigint> = {
    tx_bytes: port.ip[0] as bigint,
    rx_bytes: port.ip[1] as bigint,
    tx_packets: port.ip[2] as bigint,
    rx_packets: port.ip[3] as bigint,
    tx_errors: 0n,
    rx_errors: 0n,
    tx_dropped: 0n,
    rx_dropped: 0n,
    multicast: 0n,
    collisions: 0n,
    rx_crc_errors: 0n,
    rx_frame_errors: 0n,
    rx_fifo_errors: 0n,
    rx_missed_errors: 0n,
    tx_carrier_errors: 0n,
    tx_fifo_errors: 0n,
  };
  for (const [name, value] of Object.entries(stats)) files.put(`${net}/statistics/${name}`, `${value}\n`);
  files.put(`${net}/speed`, `${port.linkUp ? port.rateGbps * 1000 : -1}\n`);
  files.put(`${net}/mtu`, `${IP_MTU[port.network]}\n`);
  files.put(`${net}/operstate`, port.linkUp ? 'up\n' : 'down\n');
  files.put(`${net}/carrier`, port.linkUp ? '1\n' : '0\n');
  files.put(`${net}/type`, port.network === 'ethernet' ? '1\n' : '32\n');
  files.put(`${net}/addr_len`, port.network === 'ethernet' ? '6\n' : '20\n');
  files.put(`${net}/address`, `${netAddress(port)}\n`);
  files.put(`${net}/flags`, '0x1003\n');
}

function netAddress(port: HostPortTelemetry): string {
  const hex = port.guid.replace(/^0x/, '').padStart(16, '0');
  const bytes = hex.match(/../g) as string[];
  if (port.network === 'ethernet') return ['02', ...bytes.slice(3, 8)].join(':');
  return ['80', '00', '00', '00', 'fe', '80', '00', '00', '00', '00', '00', '00', ...bytes].join(':');
}
