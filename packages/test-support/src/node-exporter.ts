import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Debian's prometheus-node-exporter, which the host agent's tests and bench compare against. */
export const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter';

/** A free TCP port on 127.0.0.1 (bound, read and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A real node_exporter on a free loopback port reading these trees with only `collectors`, once its /metrics `url` answers. */
export async function startNodeExporter(options: {
  sysfs: string;
  procfs: string;
  collectors: string[];
}): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    NODE_EXPORTER,
    [
      `--web.listen-address=127.0.0.1:${port}`,
      `--path.sysfs=${options.sysfs}`,
      `--path.procfs=${options.procfs}`,
      '--collector.disable-defaults',
      // Netlink reads the machine's interfaces, not the tree; the sysfs/procfs path does.
      '--no-collector.netdev.netlink',
      ...options.collectors.map((c) => `--collector.${c}`),
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/metrics`;
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if ((await fetch(url).catch(() => null))?.ok) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`node_exporter did not answer at ${url} (exit code ${child.exitCode})`);
}
