import type { Emulator } from '../emulator-types.ts';
import { SysfsFiles } from './atomic-files.ts';
import { namePorts, writeClasses } from './class-files.ts';
import { writeProc } from './proc-files.ts';

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
      if (only && !only.has(host.name)) continue;
      const ports = namePorts(host);
      writeClasses(files, host, ports);
      writeProc(files, emulator.nowMs(), host, ports);
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
