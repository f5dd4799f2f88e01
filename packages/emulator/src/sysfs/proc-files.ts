import type { HostTelemetry } from '../emulator-types.ts';
import { CPU_COUNT, MEMORY_TOTAL_BYTES } from '../hosts/host-load.ts';
import type { SysfsFiles } from './atomic-files.ts';
import type { NamedPort } from './class-files.ts';

const USER_HZ = 100;

/** `proc/stat` (jiffies at USER_HZ), `proc/meminfo` and `proc/net/dev` of one host. */
export function writeProc(files: SysfsFiles, nowMs: number, host: HostTelemetry, ports: NamedPort[]): void {
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
  const devLine = (name: string, rx: unknown[], tx: unknown[]) =>
    `${name.padStart(6)}: ${String(rx[0]).padStart(7)} ${String(rx[1]).padStart(7)}    0    0    0     0          0         0 ${String(tx[0]).padStart(8)} ${String(tx[1]).padStart(7)}    0    0    0     0       0          0`;
  const dev = [
    'Inter-|   Receive                                                |  Transmit',
    ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
    devLine('lo', [0n, 0n], [0n, 0n]),
    ...ports.map(({ port, netdev }) => devLine(netdev, [port.ip[1], port.ip[3]], [port.ip[0], port.ip[2]])),
  ];
  files.put(`${base}/net/dev`, `${dev.join('\n')}\n`);
}
