import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FabricType } from '@fabscope/topology';
import type { Emulator, HostPortTelemetry, HostTelemetry } from './emulator.ts';
import { CPU_COUNT, MEMORY_TOTAL_BYTES } from './host-load.ts';

/**
 * Live sysfs and procfs trees, one per emulated host and router, in the kernel's own formats, so
 * a real collector reads them unchanged (`node_exporter --path.sysfs=DIR/<host>/sys
 * --path.procfs=DIR/<host>/proc`):
 *
 * - `sys/class/infiniband/<hfi1_N|mlx5_N>/` node_guid, node_desc, fw_ver, board_id, hca_type and
 *   `ports/1/` rate, state, phys_state, link_layer, lid and `counters/` (port_xmit_data and
 *   port_rcv_data in 4-octet words on every device, as the kernel reports them; data and packet
 *   counters 64-bit as the kernel reads them from PortCountersExtended; the error counters at the
 *   widths of the basic PortCounters, saturating: symbol_error 16 bits, link_downed 8, …).
 *   One device per cabled port: Omni-Path ports are `hfi1_N`, InfiniBand and Ethernet (RoCE)
 *   ports `mlx5_N`.
 * - `sys/class/net/<ibN|ethN>/` statistics/*, speed, mtu, operstate, carrier, type; IP traffic
 *   only (RDMA bypasses the kernel's network stack), counted since the host booted.
 * - `proc/stat` (jiffies at USER_HZ 100), `proc/meminfo`, `proc/net/dev`.
 *
 * Every file is written to a temporary name and renamed into place, so a reader never sees a torn
 * file; a file is rewritten only when its content changes.
 */
export interface SysfsWriterOptions {
  /** Default 1000 ms. */
  intervalMs?: number;
  /** Only these hosts and routers (default all). */
  hosts?: string[];
}

export interface SysfsWriter {
  /** Writes every tree now (also done every interval). */
  writeNow(): void;
  stop(): void;
}

const USER_HZ = 100;
const SATURATE: Record<string, number> = {
  symbol_error: 0xffff,
  link_error_recovery: 0xff,
  link_downed: 0xff,
  port_rcv_errors: 0xffff,
  port_xmit_discards: 0xffff,
  port_xmit_wait: 0xffffffff,
  // The basic PortCounters widths (IBA 16.1.3.5), as the kernel reads them.
  port_rcv_remote_physical_errors: 0xffff,
  port_rcv_switch_relay_errors: 0xffff,
  port_xmit_constraint_errors: 0xff,
  port_rcv_constraint_errors: 0xff,
  local_link_integrity_errors: 0xf,
  excessive_buffer_overrun_errors: 0xf,
  VL15_dropped: 0xffff,
};
const IP_MTU: Record<FabricType, number> = { omnipath: 10236, infiniband: 4092, ethernet: 9000 };

export function startSysfsWriter(
  emulator: Emulator,
  dir: string,
  options: SysfsWriterOptions = {},
): SysfsWriter {
  const { intervalMs = 1000 } = options;
  if (!(intervalMs >= 10)) throw new RangeError(`intervalMs must be ≥ 10, got ${intervalMs}`);
  const only = options.hosts ? new Set(options.hosts) : null;
  const files = new SysfsFiles(dir);
  const writeNow = () => {
    for (const host of emulator.hostTelemetry()) {
      if (!only || only.has(host.name)) writeHost(files, emulator.nowMs(), host);
    }
  };
  writeNow();
  const timer = setInterval(() => {
    try {
      writeNow();
    } catch (error) {
      process.stderr.write(`fabscope emulator: writing ${dir} failed: ${(error as Error).message}\n`);
    }
  }, intervalMs);
  timer.unref();
  return { writeNow, stop: () => clearInterval(timer) };
}

/** Writes files atomically, skipping those whose content has not changed. */
class SysfsFiles {
  private readonly written = new Map<string, string>();
  private readonly dirs = new Set<string>();

  constructor(private readonly root: string) {}

  put(path: string, content: string): void {
    const full = join(this.root, path);
    if (this.written.get(full) === content) return;
    const parent = full.slice(0, full.lastIndexOf('/'));
    if (!this.dirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.dirs.add(parent);
    }
    const temp = `${parent}/.${full.slice(parent.length + 1)}.${process.pid}.tmp`;
    writeFileSync(temp, content);
    renameSync(temp, full);
    this.written.set(full, content);
  }
}

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

function saturate(name: string, value: bigint): string {
  const max = SATURATE[name];
  return (max !== undefined && value > BigInt(max) ? BigInt(max) : value).toString();
}

interface NamedPort {
  port: HostPortTelemetry;
  device: string;
  netdev: string;
}

function namePorts(host: HostTelemetry): NamedPort[] {
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

function writeHost(files: SysfsFiles, nowMs: number, host: HostTelemetry): void {
  const base = host.name;
  const ports = namePorts(host);
  for (const { port, device, netdev } of ports) {
    const dev = `${base}/sys/class/infiniband/${device}`;
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
    const counters: Record<string, bigint> = {
      port_xmit_data: port.xmitBytes / 4n,
      port_rcv_data: port.rcvBytes / 4n,
      port_xmit_packets: port.xmitPkts,
      port_rcv_packets: port.rcvPkts,
      port_xmit_wait: port.xmitWait,
      symbol_error: port.symbolErrors,
      link_error_recovery: port.linkErrorRecovery,
      link_downed: port.linkDowned,
      port_rcv_errors: port.rcvErrors,
      port_xmit_discards: port.xmitDiscards,
      port_rcv_remote_physical_errors: port.rcvRemotePhysicalErrors,
      port_rcv_switch_relay_errors: port.rcvSwitchRelayErrors,
      port_xmit_constraint_errors: port.xmitConstraintErrors,
      port_rcv_constraint_errors: port.rcvConstraintErrors,
      local_link_integrity_errors: port.localLinkIntegrityErrors,
      excessive_buffer_overrun_errors: port.excessiveBufferOverrunErrors,
      VL15_dropped: port.vl15Dropped,
    };
    if (!opa) {
      counters.unicast_xmit_packets = port.xmitPkts;
      counters.unicast_rcv_packets = port.rcvPkts;
      counters.multicast_xmit_packets = 0n;
      counters.multicast_rcv_packets = 0n;
    }
    for (const [name, value] of Object.entries(counters))
      files.put(`${p}/counters/${name}`, `${saturate(name, value)}\n`);

    const net = `${base}/sys/class/net/${netdev}`;
    const stats: Record<string, bigint> = {
      tx_bytes: port.ipTxBytes,
      rx_bytes: port.ipRxBytes,
      tx_packets: port.ipTxPkts,
      rx_packets: port.ipRxPkts,
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
  writeProc(files, nowMs, host, ports);
}

function netAddress(port: HostPortTelemetry): string {
  const hex = port.guid.replace(/^0x/, '').padStart(16, '0');
  const bytes = hex.match(/../g) as string[];
  if (port.network === 'ethernet') return ['02', ...bytes.slice(3, 8)].join(':');
  return ['80', '00', '00', '00', 'fe', '80', '00', '00', '00', '00', '00', '00', ...bytes].join(':');
}

function writeProc(files: SysfsFiles, nowMs: number, host: HostTelemetry, ports: NamedPort[]): void {
  const base = `${host.name}/proc`;
  const uptime = Math.max(0, (nowMs - host.bootTimeMs) / 1000);
  const totalJiffies = Math.floor(uptime * USER_HZ);
  const busyPerCpu = Math.min(totalJiffies, Math.floor((host.cpuBusySeconds / CPU_COUNT) * USER_HZ));
  // Forwarding is kernel work (softirq and system); IP endpoints split user and system.
  const router = host.type === 'router';
  const softirq = router ? Math.floor(busyPerCpu * 0.6) : Math.floor(busyPerCpu * 0.1);
  const system = router ? Math.floor(busyPerCpu * 0.3) : Math.floor(busyPerCpu * 0.3);
  const user = busyPerCpu - softirq - system;
  const idle = totalJiffies - busyPerCpu;
  const line = (name: string, k: number) =>
    `${name} ${user * k} 0 ${system * k} ${idle * k} 0 0 ${softirq * k} 0 0 0`;
  const cpus = [line('cpu ', CPU_COUNT)];
  for (let i = 0; i < CPU_COUNT; i++) cpus.push(line(`cpu${i}`, 1));
  const btime = Math.floor(host.bootTimeMs / 1000);
  files.put(
    `${base}/stat`,
    `${cpus.join('\n')}\nintr 0\nctxt ${Math.floor(uptime * 20000)}\nbtime ${btime}\nprocesses ${1000 + Math.floor(uptime)}\nprocs_running 1\nprocs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n`,
  );
  const kb = (bytes: number) => Math.floor(bytes / 1024);
  const total = kb(MEMORY_TOTAL_BYTES);
  const used = Math.floor(total * host.memoryUsedFraction);
  const cached = Math.floor(total * 0.01);
  const entries: [string, number][] = [
    ['MemTotal', total],
    ['MemFree', total - used - cached],
    ['MemAvailable', total - used],
    ['Buffers', 2048],
    ['Cached', cached - 2048],
    ['SwapCached', 0],
    ['Active', Math.floor(used * 0.6)],
    ['Inactive', Math.floor(used * 0.2)],
    ['SwapTotal', 0],
    ['SwapFree', 0],
    ['Dirty', 0],
    ['Writeback', 0],
    ['AnonPages', Math.floor(used * 0.5)],
    ['Mapped', 65536],
    ['Shmem', 16384],
    ['Slab', Math.floor(used * 0.1)],
    ['PageTables', 8192],
    ['CommitLimit', Math.floor(total / 2)],
    ['Committed_AS', used],
    ['VmallocTotal', 34359738367],
    ['HugePages_Total', 0],
  ];
  files.put(
    `${base}/meminfo`,
    `${entries
      .map(([name, value]) =>
        name.startsWith('HugePages_')
          ? `${`${name}:`.padEnd(16)}${String(value).padStart(6)}`
          : `${`${name}:`.padEnd(16)}${String(value).padStart(8)} kB`,
      )
      .join('\n')}\n`,
  );
  const devLine = (name: string, rx: bigint[], tx: bigint[]) =>
    `${name.padStart(6)}: ${String(rx[0]).padStart(7)} ${String(rx[1]).padStart(7)}    0    0    0     0          0         0 ${String(tx[0]).padStart(8)} ${String(tx[1]).padStart(7)}    0    0    0     0       0          0`;
  const dev = [
    'Inter-|   Receive                                                |  Transmit',
    ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
    devLine('lo', [0n, 0n], [0n, 0n]),
    ...ports.map(({ port, netdev }) =>
      devLine(netdev, [port.ipRxBytes, port.ipRxPkts], [port.ipTxBytes, port.ipTxPkts]),
    ),
  ];
  files.put(`${base}/net/dev`, `${dev.join('\n')}\n`);
}
