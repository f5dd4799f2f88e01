import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/index.ts';
import { startServerProcess } from '../src/server-process.ts';

export interface VictoriaMetricsServer {
  url: string;
  /** Where a Prometheus remote-writes into it. */
  writeUrl: string;
  stop(): Promise<void>;
}

/**
 * A real single-node VictoriaMetrics (Debian `victoria-metrics`) on a free loopback port with its
 * own temporary storage. Queries see samples as soon as they land (no 30 s latency offset, no
 * result cache), as a test that reads right after writing needs.
 */
export async function startVictoriaMetrics(binary = 'victoria-metrics'): Promise<VictoriaMetricsServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fabscope-vm-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    name: 'victoria-metrics',
    binary,
    args: [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=1d',
      '-search.latencyOffset=0s',
      '-search.disableCache',
      '-loggerLevel=ERROR',
    ],
    dataDir: dir,
    readyUrl: `${url}/health`,
  });
  return { url, writeUrl: `${url}/api/v1/write`, stop: server.stop };
}
