import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EDGE_FAMILIES, PORT_FAMILIES } from '@fabscope/collectors';
import { PORT_SERIES, SOURCE_SERIES } from '@fabscope/contracts/metrics';
import { parse, stringify } from 'yaml';
import { CHECKOUT_ROOT } from '../checkout.ts';
import { findTool, type LoopbackServer, startLoopbackServer } from './server-process.ts';

/** The one Prometheus configuration, shared with docker-compose.yml. */
export const PROMETHEUS_CONFIG = join(CHECKOUT_ROOT, 'deploy/prometheus/prometheus.yml');
export const FABRIC_JOB = 'fabscope-fabric';

export type PrometheusServer = LoopbackServer;

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
  /** Grace after SIGTERM on stop before SIGKILL; default 5 s. */
  killAfterMs?: number;
  /** Called with the (empty) TSDB directory before Prometheus starts: e.g. to backfill blocks. */
  beforeStart?: (dataDir: string) => Promise<void>;
}

interface ScrapeConfig {
  job_name: string;
  scrape_interval?: string;
  scrape_timeout?: string;
  params?: Record<string, string[]>;
  static_configs?: { targets: string[] }[];
}

interface PrometheusYaml {
  global?: Record<string, string>;
  rule_files?: string[];
  scrape_configs?: ScrapeConfig[];
  remote_write?: { url: string; queue_config?: Record<string, string | number> }[];
  alerting?: { alertmanagers: AlertmanagerTarget[] };
}

interface AlertmanagerTarget {
  scheme?: string;
  path_prefix?: string;
  static_configs: { targets: string[] }[];
}

/** An Alertmanager's URL (`http://host:9093`, with a path prefix if it has one) as Prometheus' `alerting:` entry. */
export function alertmanagerTarget(url: string): AlertmanagerTarget {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`an Alertmanager URL must be http(s), got "${url}"`);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return {
    ...(u.protocol === 'https:' ? { scheme: 'https' } : {}),
    ...(u.pathname === '/' ? {} : { path_prefix: u.pathname }),
    static_configs: [{ targets: [`${u.hostname}:${port}`] }],
  };
}

/** How often Prometheus scrapes and evaluates, and where it forwards samples. */
export interface ScrapeSettings {
  /** Scrape and rule-evaluation interval; default 1 s, as shipped (choose it with scrapeIntervalFor). */
  scrapeIntervalMs?: number | undefined;
  /** Remote-write URLs (VictoriaMetrics `/api/v1/write`, Thanos Receive, Mimir): every sample, recorded ones too. */
  remoteWrite?: string[] | undefined;
  /** Beyond 1 s, whether to scrape the raw counters too (default true). */
  slowJob?: boolean | undefined;
  /** Alertmanager URLs, replacing the shipped `alerting:`; none: alerts go nowhere. */
  alertmanagers?: string[] | undefined;
}

/** `rate()`'s window over other exporters' raw counters: 5 s at 1 s, else 3 intervals. */
export function rateWindowFor(scrapeIntervalMs: number): string {
  return `${Math.max(5, Math.ceil((3 * scrapeIntervalMs) / 1000))}s`;
}

export const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))}s`;

/** What the views read at the fast interval; the raw counters go in `SLOW_JOB`. */
export const FAST_FAMILIES = [
  PORT_SERIES.info,
  PORT_SERIES.linkUp,
  ...EDGE_FAMILIES.map((f) => f.name),
  SOURCE_SERIES.up,
  SOURCE_SERIES.readDuration,
  SOURCE_SERIES.errors,
] as const;
/** The raw counters' job, when a Prometheus keeps them (`slowJob`). */
export const SLOW_JOB = 'fabscope-fabric-raw';

/** The shipped rules at another interval; stale-data windows widen so a long interval still holds a sample. */
function rulesAtInterval(text: string, scrapeIntervalMs: number, groupIntervalMs = scrapeIntervalMs): string {
  const window = rateWindowFor(scrapeIntervalMs);
  return (
    text
      .replace(/^(\s*interval:\s*)1s\s*$/gm, `$1${seconds(groupIntervalMs)}`)
      // A group without an interval of its own (evaluated at the global one) gets the group interval.
      .replace(
        /^( *)- name: ([^\n]+)\n(?! *interval:)/gm,
        (_all, indent: string, name: string) =>
          `${indent}- name: ${name}\n${indent}  interval: ${seconds(groupIntervalMs)}\n`,
      )
      .replaceAll('[5s]', `[${window}]`)
      .replaceAll('[1m]', `[${seconds(Math.max(60_000, 3 * scrapeIntervalMs))}]`)
      .replaceAll('[10m]', `[${seconds(Math.max(600_000, 10 * scrapeIntervalMs))}]`)
      .replaceAll('[10m:]', `[${seconds(Math.max(600_000, 10 * scrapeIntervalMs))}:]`)
      .replace(/:(\w*_)?rate5s\b/g, `:$1rate${window}`)
  );
}

/** `source` (a scrape configuration in Prometheus' format) with its fabric job scraping `targets`. */
export function withFabricTargets(source: string, targets: string[]) {
  const config = parse(readFileSync(source, 'utf8')) as PrometheusYaml;
  const job = config.scrape_configs?.find((c) => c.job_name === FABRIC_JOB);
  if (!job) throw new Error(`${source} has no scrape job "${FABRIC_JOB}"`);
  job.static_configs = [{ targets }];
  return { config, job };
}

/** deploy/prometheus/prometheus.yml for `targets`, with rules rewritten beside it at another interval. */
export function prometheusConfig(
  targets: string[],
  source = PROMETHEUS_CONFIG,
  extraJobs: ScrapeJob[] = [],
  settings: ScrapeSettings & { ruleDir?: string } = {},
): string {
  const { config, job } = withFabricTargets(source, targets);
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
    const slow = Math.max(30_000, 3 * interval);
    config.rule_files = rules.map((file) => {
      const target = join(ruleDir, basename(file));
      // The alerts look at minutes: evaluated at the slow cadence (slow on a big fabric).
      const groupInterval = basename(file) === 'alerts.yml' ? slow : interval;
      writeFileSync(target, rulesAtInterval(readFileSync(file, 'utf8'), interval, groupInterval));
      return target;
    });
    // Big fabrics: the fast job asks only for what the views need; raw counters get a job of their own.
    job.params = { 'name[]': [...FAST_FAMILIES] };
    if (settings.slowJob !== false)
      config.scrape_configs?.push({
        job_name: SLOW_JOB,
        scrape_interval: seconds(slow),
        scrape_timeout: seconds(slow),
        params: {
          'name[]': PORT_FAMILIES.map((f) => f.name).filter(
            (n) => !(FAST_FAMILIES as readonly string[]).includes(n),
          ),
        },
        static_configs: [{ targets }],
      });
  } else {
    config.rule_files = rules;
  }
  const alertmanagers = settings.alertmanagers ?? [];
  if (alertmanagers.length > 0) config.alerting = { alertmanagers: alertmanagers.map(alertmanagerTarget) };
  else delete config.alerting;
  if (settings.remoteWrite && settings.remoteWrite.length > 0) {
    config.remote_write = settings.remoteWrite.map((url) => ({
      url,
      // Forward within a second or two: the central store answers the same questions soon after.
      queue_config: { batch_send_deadline: '1s', max_samples_per_send: 10_000 },
    }));
  }
  return stringify(config);
}

/** Starts a real Prometheus on a free loopback port with its own TSDB; stop() removes the data. */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  return startLoopbackServer({
    name: 'prometheus',
    binary: await findTool([options.binary ?? 'prometheus'], 'prometheus'),
    config: (dir) =>
      prometheusConfig(options.targets, PROMETHEUS_CONFIG, options.extraJobs, { ...options, ruleDir: dir }),
    beforeStart: async (dir) => options.beforeStart?.(join(dir, 'data')),
    args: (dir, configFile, port) => [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=2h',
      '--log.level=warn',
    ],
    port: options.port,
    readyTimeoutMs: options.readyTimeoutMs,
    killAfterMs: options.killAfterMs,
  });
}
