import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
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
  stop(): Promise<void>;
}

/** A further scrape job (e.g. node_exporters or host agents), scraped like the fabric job. */
export interface ScrapeJob {
  jobName: string;
  targets: string[];
}

export interface PrometheusOptions extends ScrapeSettings {
  /** host:port targets of fabscope collectors. */
  targets: string[];
  extraJobs?: ScrapeJob[];
  port?: number;
  binary?: string;
  readyTimeoutMs?: number;
  /** Called with the (empty) TSDB directory before Prometheus starts: e.g. to backfill blocks. */
  beforeStart?: (dataDir: string) => Promise<void>;
}

interface PrometheusYaml {
  global?: Record<string, string>;
  rule_files?: string[];
  scrape_configs?: { job_name: string; static_configs?: { targets: string[] }[] }[];
  remote_write?: { url: string; queue_config?: Record<string, string | number> }[];
}

/** How often Prometheus scrapes and evaluates, and where it forwards samples. */
export interface ScrapeSettings {
  /** Scrape and rule-evaluation interval; default 1 s, as shipped (choose it with scrapeIntervalFor). */
  scrapeIntervalMs?: number | undefined;
  /** Remote-write URLs (VictoriaMetrics `/api/v1/write`, Thanos Receive, Mimir): every sample, recorded ones too. */
  remoteWrite?: string[] | undefined;
}

/** The recording rules' rate window at a scrape interval: 5 s at 1 s (as shipped), else 3 intervals. */
export function rateWindowFor(scrapeIntervalMs: number): string {
  return `${Math.max(5, Math.ceil((3 * scrapeIntervalMs) / 1000))}s`;
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))}s`;

/**
 * The shipped rules (recording.yml, alerts.yml) at another interval: each group evaluated every
 * interval, and the recorded rates over `rateWindowFor(interval)` instead of 5 s, named after
 * their window (`…:rate30s`) as the API reads them (FABSCOPE_PROMETHEUS_RATE_WINDOW).
 */
export function rulesAtInterval(text: string, scrapeIntervalMs: number): string {
  const window = rateWindowFor(scrapeIntervalMs);
  return text
    .replace(/^(\s*interval:\s*)1s\s*$/gm, `$1${seconds(scrapeIntervalMs)}`)
    .replaceAll('[5s]', `[${window}]`)
    .replace(/:(ratio_)?rate5s\b/g, `:$1rate${window}`);
}

/**
 * deploy/prometheus/prometheus.yml with the fabric job's targets replaced by `targets` and the
 * rule files made absolute (the result is written elsewhere). At another interval than the
 * shipped 1 s, the rule files are rewritten beside the result (`ruleDir`, rulesAtInterval) and
 * the scrape timeout follows the interval. Everything else stays as shipped.
 */
export function prometheusConfig(
  targets: string[],
  source = PROMETHEUS_CONFIG,
  extraJobs: ScrapeJob[] = [],
  settings: ScrapeSettings & { ruleDir?: string } = {},
): string {
  const config = parse(readFileSync(source, 'utf8')) as PrometheusYaml;
  const job = config.scrape_configs?.find((c) => c.job_name === FABRIC_JOB);
  if (!job) throw new Error(`${source} has no scrape job "${FABRIC_JOB}"`);
  job.static_configs = [{ targets }];
  for (const extra of extraJobs) {
    config.scrape_configs?.push({ job_name: extra.jobName, static_configs: [{ targets: extra.targets }] });
  }
  const rules = (config.rule_files ?? []).map((f) => resolve(dirname(source), f));
  const interval = settings.scrapeIntervalMs ?? 1000;
  if (interval !== 1000) {
    if (!settings.ruleDir)
      throw new Error('rules at another interval than 1 s need a ruleDir to be written to');
    const ruleDir = settings.ruleDir;
    config.global = {
      ...config.global,
      scrape_interval: seconds(interval),
      // A big fabric's answer streams for seconds: the timeout is the interval, as Prometheus allows.
      scrape_timeout: seconds(interval),
      evaluation_interval: seconds(interval),
    };
    config.rule_files = rules.map((file) => {
      const target = join(ruleDir, basename(file));
      writeFileSync(target, rulesAtInterval(readFileSync(file, 'utf8'), interval));
      return target;
    });
  } else {
    config.rule_files = rules;
  }
  if (settings.remoteWrite && settings.remoteWrite.length > 0) {
    config.remote_write = settings.remoteWrite.map((url) => ({
      url,
      // Forward within a second or two: the central store answers the same questions soon after.
      queue_config: { batch_send_deadline: '1s', max_samples_per_send: 10_000 },
    }));
  }
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
  await writeFile(
    configFile,
    prometheusConfig(options.targets, PROMETHEUS_CONFIG, options.extraJobs, {
      scrapeIntervalMs: options.scrapeIntervalMs,
      remoteWrite: options.remoteWrite,
      ruleDir: dir,
    }),
  );
  await options.beforeStart?.(join(dir, 'data'));
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
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    try {
      const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return { url, configFile, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`prometheus did not become ready at ${url}: ${stderr.trim()}`);
}
