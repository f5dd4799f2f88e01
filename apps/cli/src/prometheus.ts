import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port.ts';

/** The one Prometheus configuration, shared with docker-compose.yml. */
export const PROMETHEUS_CONFIG = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../deploy/prometheus/prometheus.yml',
);
export const FABRIC_JOB = 'fabscope-fabric';

export class MissingToolError extends Error {
  override name = 'MissingToolError';
}

export interface PrometheusServer {
  url: string;
  configFile: string;
  /** The process id, for a supervisor (and tests) to watch or signal it. */
  pid: number | undefined;
  /** Resolves with how the process ended ("code 0", "signal SIGKILL"), whoever ended it. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** A further scrape job (e.g. node_exporters or host agents), scraped like the fabric job. */
export interface ScrapeJob {
  jobName: string;
  targets: string[];
}

export interface PrometheusOptions {
  /** host:port targets of fabscope collectors. */
  targets: string[];
  extraJobs?: ScrapeJob[];
  port?: number;
  binary?: string;
  readyTimeoutMs?: number;
}

interface PrometheusYaml {
  rule_files?: string[];
  scrape_configs?: { job_name: string; static_configs?: { targets: string[] }[] }[];
}

/**
 * deploy/prometheus/prometheus.yml with the fabric job's targets replaced by `targets` and the
 * rule files made absolute (the result is written elsewhere). Everything else stays as shipped.
 */
export function prometheusConfig(
  targets: string[],
  source = PROMETHEUS_CONFIG,
  extraJobs: ScrapeJob[] = [],
): string {
  const config = parse(readFileSync(source, 'utf8')) as PrometheusYaml;
  const job = config.scrape_configs?.find((c) => c.job_name === FABRIC_JOB);
  if (!job) throw new Error(`${source} has no scrape job "${FABRIC_JOB}"`);
  job.static_configs = [{ targets }];
  for (const extra of extraJobs) {
    config.scrape_configs?.push({ job_name: extra.jobName, static_configs: [{ targets: extra.targets }] });
  }
  config.rule_files = (config.rule_files ?? []).map((f) => resolve(dirname(source), f));
  return stringify(config);
}

export async function findPrometheus(binary = 'prometheus'): Promise<string> {
  try {
    await promisify(execFile)(binary, ['--version'], { timeout: 10_000 });
    return binary;
  } catch {
    throw new MissingToolError(
      `"${binary}" was not found on PATH: install the Debian package "prometheus" (apt-get install prometheus)`,
    );
  }
}

/**
 * Starts a real Prometheus on a free loopback port with its own temporary TSDB, and waits until
 * it is ready (polling /-/ready; Prometheus takes a few seconds). stop() kills it and removes the data.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  const binary = await findPrometheus(options.binary);
  const dir = await mkdtemp(join(tmpdir(), 'fabscope-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(configFile, prometheusConfig(options.targets, PROMETHEUS_CONFIG, options.extraJobs));
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=2h',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    try {
      const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return { url, configFile, pid: child.pid, exited, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`prometheus did not become ready at ${url}: ${stderr.trim()}`);
}
