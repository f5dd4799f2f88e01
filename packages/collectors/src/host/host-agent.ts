import { ExpositionWriter } from '../exposition/writer.ts';
import { collectNetdev } from './netdev.ts';
import { collectCpu, collectMeminfo } from './procfs.ts';
import { TreeReader } from './reader.ts';
import { collectRoce, type EthtoolStatistics, runEthtool } from './roce/roce-collector.ts';
import { collectInfiniband, type DeviceFilter } from './sysfs-infiniband.ts';

export interface HostCollectorOptions {
  /** sysfs mount (default `/sys`): `class/infiniband` and `class/net` are read under it. */
  sysfs?: string;
  /** procfs mount (default `/proc`): `stat` and `meminfo`. */
  procfs?: string;
  /** Only devices (InfiniBand devices and network interfaces) whose name matches. */
  include?: RegExp | undefined;
  /** Skip devices whose name matches. */
  exclude?: RegExp | undefined;
  /**
   * `ethtool -S` of a RoCE port's netdev, for its pause counters: by default ethtool runs when `sysfs` is this
   * host's `/sys` (another tree's netdevs are not this host's); null: none.
   */
  ethtool?: EthtoolStatistics | null;
}

export interface HostCollector {
  /** Reads every file now and returns the exposition text. */
  scrape(): Promise<string>;
}

/**
 * The host agent: InfiniBand ports, interfaces, CPU and memory under node_exporter's names, and RoCE ports'
 * congestion counters, read in scrape().
 */
export function createHostCollector(options: HostCollectorOptions = {}): HostCollector {
  const sysfs = options.sysfs ?? '/sys';
  const procfs = options.procfs ?? '/proc';
  const filter: DeviceFilter = { include: options.include, exclude: options.exclude };
  const readErrors = new Map<string, number>();

  const ethtool = options.ethtool !== undefined ? options.ethtool : sysfs === '/sys' ? runEthtool : null;

  async function scrape(): Promise<string> {
    const started = performance.now();
    const out = new ExpositionWriter();
    const sys = new TreeReader(sysfs);
    const proc = new TreeReader(procfs);
    collectInfiniband(sys, out, filter);
    await collectRoce(sys, out, { filter, ethtool });
    collectNetdev(sys, out, filter);
    collectCpu(proc, out);
    collectMeminfo(proc, out);
    for (const [reader, mount] of [
      [sys, 'sysfs'],
      [proc, 'procfs'],
    ] as const) {
      for (const path of reader.failures) {
        const key = `${mount}:${path}`;
        readErrors.set(key, (readErrors.get(key) ?? 0) + 1);
      }
    }
    for (const [key, count] of readErrors) {
      const colon = key.indexOf(':');
      out.counter(
        'fabscope_host_read_errors_total',
        'Reads of a sysfs or procfs file that failed (permission, I/O error); the scrape went on without it',
        { mount: key.slice(0, colon), path: key.slice(colon + 1) },
        count,
      );
    }
    out.gauge(
      'fabscope_host_scrape_duration_seconds',
      'Time this scrape took to read sysfs and procfs',
      {},
      (performance.now() - started) / 1000,
    );
    return out.text();
  }

  return { scrape };
}
