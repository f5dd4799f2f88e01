import { startExporter } from './exporter-process.ts';

export { freePort } from './exporter-process.ts';

/** Debian's prometheus-node-exporter, which the host agent's tests and bench compare against. */
export const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter';

/** A real node_exporter on a free loopback port reading these trees with only `collectors`, once its /metrics `url` answers. */
export async function startNodeExporter(options: {
  sysfs: string;
  procfs: string;
  collectors: string[];
}): Promise<{ url: string; stop(): Promise<void> }> {
  const { base, stop } = await startExporter('node_exporter', NODE_EXPORTER, (port) => [
    `--web.listen-address=127.0.0.1:${port}`,
    `--path.sysfs=${options.sysfs}`,
    `--path.procfs=${options.procfs}`,
    '--collector.disable-defaults',
    // Netlink reads the machine's interfaces, not the tree; the sysfs/procfs path does.
    '--no-collector.netdev.netlink',
    ...options.collectors.map((c) => `--collector.${c}`),
  ]);
  return { url: `${base}/metrics`, stop };
}
