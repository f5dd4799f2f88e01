import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/index.ts';

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
  const child: ChildProcess = spawn(
    binary,
    [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=1d',
      '-search.latencyOffset=0s',
      '-search.disableCache',
      '-loggerLevel=ERROR',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`victoria-metrics exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    const ready = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
    if (ready?.ok) return { url, writeUrl: `${url}/api/v1/write`, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`victoria-metrics did not become ready at ${url}: ${stderr.trim()}`);
}
