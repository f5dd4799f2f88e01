import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/index.ts';
import { startServerProcess } from '../src/prometheus/server-process.ts';

export interface VictoriaMetricsServer {
  url: string;
  /** Where a Prometheus remote-writes into it. */
  writeUrl: string;
  stop(): Promise<void>;
}

export interface VictoriaMetricsOptions {
  binary?: string;
  /** A scrape configuration (YAML text, Prometheus' format): it scrapes those targets itself. */
  scrapeConfig?: string;
  /** More flags (e.g. `-promscrape.maxScrapeSize` for a big fabric's scrapes). */
  extraArgs?: string[];
}

/**
 * A real single-node VictoriaMetrics (Debian `victoria-metrics`) on a free loopback port with its
 * own temporary storage. Queries see samples as soon as they land (no 30 s latency offset, no
 * result cache), as a test that reads right after writing needs.
 */
export async function startVictoriaMetrics(
  options: VictoriaMetricsOptions = {},
): Promise<VictoriaMetricsServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fabscope-vm-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const scrape: string[] = [];
  if (options.scrapeConfig !== undefined) {
    const file = join(dir, 'scrape.yml');
    await writeFile(file, options.scrapeConfig);
    scrape.push(`-promscrape.config=${file}`);
  }
  const server = await startServerProcess({
    name: 'victoria-metrics',
    binary: options.binary ?? 'victoria-metrics',
    args: [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=1d',
      '-search.latencyOffset=0s',
      '-search.disableCache',
      '-loggerLevel=ERROR',
      ...scrape,
      ...(options.extraArgs ?? []),
    ],
    dataDir: dir,
    readyUrl: `${url}/health`,
  });
  return { url, writeUrl: `${url}/api/v1/write`, stop: server.stop };
}

export interface Vmagent {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real vmagent (Debian `victoria-metrics`) on a free loopback port: scrapes what `scrapeConfig`
 * (YAML text) names and forwards every sample to `remoteWriteUrl`, flushing every second; its
 * buffer on disk in its own temporary directory.
 */
export async function startVmagent(options: {
  scrapeConfig: string;
  remoteWriteUrl: string;
  binary?: string;
}): Promise<Vmagent> {
  const dir = await mkdtemp(join(tmpdir(), 'fabscope-vmagent-'));
  const file = join(dir, 'scrape.yml');
  await writeFile(file, options.scrapeConfig);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    name: 'vmagent',
    binary: options.binary ?? 'vmagent',
    args: [
      `-promscrape.config=${file}`,
      `-remoteWrite.url=${options.remoteWriteUrl}`,
      `-remoteWrite.tmpDataPath=${join(dir, 'buffer')}`,
      '-remoteWrite.flushInterval=1s',
      `-httpListenAddr=127.0.0.1:${port}`,
      '-loggerLevel=ERROR',
    ],
    dataDir: dir,
    readyUrl: `${url}/health`,
  });
  return { url, stop: server.stop };
}
