import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type Fabric, ParseError, type PmThresholdConfig, parsePmThresholds } from '@fabscope/topology';
import { ConfigError } from './errors.ts';
import { parseCommandLine } from './fabric-manager/run-command.ts';
import { METRICS_SOURCES, type MetricsSource } from './store/series-mapping.ts';
import { type LiveTopologyConfig, liveTopologyConfig } from './topology-live/config.ts';

export { ConfigError } from './errors.ts';

/** Settings from the environment, checked once at start; every one is documented in the README. */
export interface ApiConfig {
  host: string;
  port: number;
  scenario: string;
  prometheusUrl: string | undefined;
  emulatorUrl: string | undefined;
  collectorUrls: string[];
  apiToken: string | undefined;
  /** Host names accepted besides loopback ones for changes while listening on loopback (FABSCOPE_ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** Longest a client may take to send a whole request (FABSCOPE_REQUEST_TIMEOUT_MS, default 30 s). */
  requestTimeoutMs: number;
  /** Sampling tick (ms); undefined: from the fabric's size (`defaultSampleIntervalMs`). */
  sampleIntervalMs: number | undefined;
  prometheusRateWindow: string;
  /**
   * PromQL queries in flight to the TSDB at once (FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES, 1..64);
   * undefined: promql-client.ts's default (2).
   */
  tsdbMaxConcurrentQueries: number | undefined;
  /**
   * Where the live view reads with a TSDB (FABSCOPE_LIVE_SOURCE): `tsdb` asks it; `collectors`
   * reads FABSCOPE_COLLECTOR_URLS itself, as the embedded store does, and asks the TSDB only for
   * history, events and alerts (docs/scaling.md: a fabric too large for its dense reads).
   * Undefined: not said — `tsdb`, or the demo's choice by size.
   */
  liveSource: LiveSource | undefined;
  /** Whose series the store reads counters from: fabscope's collectors or an exporter already running. */
  metricsSource: MetricsSource;
  /** node_exporter `instance` (host:port) → topology node name; default the instance's host part. */
  nodeExporterHosts: Map<string, string>;
  /** node_exporter `device:port` (InfiniBand) or `device` (interface) → topology port number. */
  devicePorts: Map<string, number>;
  /** A topology file (ibnetdiscover, ibsim, `ibnetdiscover -p`, opareport XML) to load instead of the scenario. */
  topologyPath?: string | undefined;
  /** Routing engine for the forwarding tables; `auto` = fattree, or minhop when the fabric is not a fat tree. */
  routing?: 'minhop' | 'fattree' | 'auto';
  /** Directory of the events file (docs/history.md); unset: events are kept in memory only. */
  eventsDir?: string | undefined;
  /** Seconds of history the embedded store keeps (default 3600). */
  historySeconds?: number | undefined;
  /** Most bytes the embedded store's history takes, in memory and on disk each (default 512 MiB). */
  historyMaxBytes?: number | undefined;
  /** Where the embedded store keeps its history on disk (FABSCOPE_DATA_DIR; docs/history.md). */
  dataDir?: string | undefined;
  /**
   * The data directory when FABSCOPE_DATA_DIR is unset: `$XDG_STATE_HOME/fabscope`, else
   * `$HOME/.local/state/fabscope` (undefined without either). `fabscope serve` uses it; the demo
   * does not, its emulated fabric starting anew each run.
   */
  defaultDataDir?: string | undefined;
  /** PM category thresholds and weights from FABSCOPE_PM_THRESHOLDS (opafm XML); unset: opafm's defaults. */
  pmThresholds?: PmThresholdConfig | undefined;
  /** Where jobs come from (FABSCOPE_JOBS); unset: the emulator's traffic, or none. */
  jobs?: JobsConfig | undefined;
  /** The site's Omni-Path fabric manager config, for adaptive routing (FABSCOPE_OPAFM_XML, FABSCOPE_OPAFM_APPLY). */
  opafm?: OpafmConfig | undefined;
  /** The subnet manager's forwarding tables (FABSCOPE_LFTS, FABSCOPE_LFTS_INTERVAL_MS); unset: computed ones. */
  lfts?: LftsConfig | undefined;
  /**
   * What fabric is watched (FABSCOPE_FABRIC): `emulator` (the demo's, default) or a real one read
   * with its own management tools, `infiniband` (infiniband-diags and MADs through libibumad; the
   * topology from discovery, the routes from the subnet manager's tables). On `infiniband` an
   * emulator, if any, is only a traffic source: it never stands for the fabric's routing or state.
   */
  fabricSource?: FabricSourceKind;
  /**
   * Live topology and drift (FABSCOPE_DISCOVER_INTERVAL_MS, FABSCOPE_EXPECTED_TOPOLOGY,
   * FABSCOPE_DRIFT_STABLE_SECONDS, FABSCOPE_TOPOLOGY_VERSIONS); unset: their defaults.
   */
  topologyLive?: LiveTopologyConfig | undefined;
  /** Fastify's log level on stderr (FABSCOPE_LOG_LEVEL, default `warn`; `info` adds a line per request). */
  logLevel?: LogLevel;
  /** How long the API waits for the emulator (FABSCOPE_EMULATOR_TIMEOUT_MS); unset: from the fabric's size. */
  emulatorTimeoutMs?: number;
}

export type FabricSourceKind = 'emulator' | 'infiniband';

/** Levels of FABSCOPE_LOG_LEVEL (pino's): `warn` by default, where every 5xx leaves one line. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** FABSCOPE_LOG_LEVEL and FABSCOPE_EMULATOR_TIMEOUT_MS (unset: from the fabric's size). */
function loggingAndUpstreams(env: NodeJS.ProcessEnv): { logLevel: LogLevel; emulatorTimeoutMs?: number } {
  const logLevel = (env.FABSCOPE_LOG_LEVEL || 'warn') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`FABSCOPE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const raw = env.FABSCOPE_EMULATOR_TIMEOUT_MS;
  if (!raw) return { logLevel };
  const emulatorTimeoutMs = Number(raw);
  if (!Number.isInteger(emulatorTimeoutMs) || emulatorTimeoutMs < 100 || emulatorTimeoutMs > 600_000) {
    throw new ConfigError(`FABSCOPE_EMULATOR_TIMEOUT_MS must be 100..600000, got "${raw}"`);
  }
  return { logLevel, emulatorTimeoutMs };
}
export const FABRIC_SOURCE_KINDS: readonly FabricSourceKind[] = ['emulator', 'infiniband'];

/** Reads FABSCOPE_PM_THRESHOLDS: an opafm.xml, `<Pm>` or `<PmThresholds>` file. */
function pmThresholdsFrom(path: string | undefined): PmThresholdConfig | undefined {
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`FABSCOPE_PM_THRESHOLDS: cannot read "${path}": ${(error as Error).message}`);
  }
  try {
    return parsePmThresholds(text);
  } catch (error) {
    if (error instanceof ParseError)
      throw new ConfigError(`FABSCOPE_PM_THRESHOLDS: ${error.inFile(path).message}`);
    throw error;
  }
}

export interface OpafmConfig {
  /** opafm.xml, whose <Common><Sm><AdaptiveRouting> the API reads and edits. */
  xmlPath: string;
  /** Run without a shell after each change (the FM's reload), as words; undefined: none. */
  apply: string[] | undefined;
}

/** FABSCOPE_OPAFM_XML (a file that exists) and FABSCOPE_OPAFM_APPLY (a command line, only with it). */
function opafmConfig(env: NodeJS.ProcessEnv): OpafmConfig | undefined {
  const xmlPath = env.FABSCOPE_OPAFM_XML || undefined;
  const applyText = env.FABSCOPE_OPAFM_APPLY?.trim() || undefined;
  if (xmlPath === undefined) {
    if (applyText !== undefined)
      throw new ConfigError('FABSCOPE_OPAFM_APPLY is set without FABSCOPE_OPAFM_XML');
    return undefined;
  }
  if (!existsSync(xmlPath))
    throw new ConfigError(`FABSCOPE_OPAFM_XML names a file that does not exist: "${xmlPath}"`);
  if (applyText === undefined) return { xmlPath, apply: undefined };
  try {
    return { xmlPath, apply: parseCommandLine(applyText) };
  } catch (error) {
    throw new ConfigError(`FABSCOPE_OPAFM_APPLY: ${(error as Error).message}`);
  }
}

export type JobsConfig =
  | { kind: 'slurm'; format: 'json' | 'text'; command: string; timeoutMs: number }
  | { kind: 'file'; path: string };

/** FABSCOPE_JOBS: `slurm` (squeue --json), `slurm-text` (squeue -h -o), or `file:PATH`. */
function jobsConfig(env: NodeJS.ProcessEnv): JobsConfig | undefined {
  const value = env.FABSCOPE_JOBS;
  if (value === undefined || value === '') return undefined;
  if (value.startsWith('file:')) {
    const path = value.slice('file:'.length);
    if (!existsSync(path)) throw new ConfigError(`FABSCOPE_JOBS names a file that does not exist: "${path}"`);
    return { kind: 'file', path };
  }
  if (value !== 'slurm' && value !== 'slurm-text') {
    throw new ConfigError(`FABSCOPE_JOBS must be slurm, slurm-text or file:PATH, got "${value}"`);
  }
  const timeoutMs = env.FABSCOPE_SQUEUE_TIMEOUT_MS ? Number(env.FABSCOPE_SQUEUE_TIMEOUT_MS) : 5000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000) {
    throw new ConfigError(
      `FABSCOPE_SQUEUE_TIMEOUT_MS must be 100..60000, got "${env.FABSCOPE_SQUEUE_TIMEOUT_MS}"`,
    );
  }
  return {
    kind: 'slurm',
    format: value === 'slurm' ? 'json' : 'text',
    command: env.FABSCOPE_SQUEUE || 'squeue',
    timeoutMs,
  };
}

/** Where the subnet manager's tables are read from, and how often. */
export type LftsConfig = ({ kind: 'file'; path: string } | { kind: 'ibroute' | 'dump_fts' }) & {
  intervalMs: number;
};

/**
 * FABSCOPE_LFTS: the path of OpenSM's opensm-lfts.dump (its directory must exist; the file may come
 * later), or `ibroute` / `dump_fts` to read every switch's table with that tool. Checked every
 * FABSCOPE_LFTS_INTERVAL_MS: default 1 s for a file (one stat), 30 s for the tools (MADs to every switch).
 */
function lftsConfig(env: NodeJS.ProcessEnv): LftsConfig | undefined {
  const value = env.FABSCOPE_LFTS;
  if (value === undefined || value === '') return undefined;
  const tool = value === 'ibroute' || value === 'dump_fts' ? value : undefined;
  const raw = env.FABSCOPE_LFTS_INTERVAL_MS;
  const intervalMs = raw ? Number(raw) : tool ? 30_000 : 1000;
  if (!Number.isInteger(intervalMs) || intervalMs < 100 || intervalMs > 3_600_000) {
    throw new ConfigError(`FABSCOPE_LFTS_INTERVAL_MS must be 100..3600000, got "${raw}"`);
  }
  if (tool) return { kind: tool, intervalMs };
  if (!existsSync(dirname(value))) {
    throw new ConfigError(`FABSCOPE_LFTS names a file in a directory that does not exist: "${value}"`);
  }
  return { kind: 'file', path: value, intervalMs };
}

/**
 * The sampling tick when FABSCOPE_SAMPLE_INTERVAL_MS is unset: 1 s, longer on big fabrics, where
 * one scrape of every port (emulator, collector, store, in one process in the demo) takes a good
 * part of a second or more (apps/cli/bench/pipeline-scale.bench.ts). Omni-Path's PM sweeps
 * every 10 s by default, so 10 s at 100k+ ports is what a real fabric manager gives too.
 */
export function defaultSampleIntervalMs(fabric: Pick<Fabric, 'links'>): number {
  const ports = fabric.links.length * 2;
  return (SAMPLE_INTERVAL_STEPS.find((step) => ports <= step.maxPorts) ?? LARGEST_STEP).intervalMs;
}

/** The sampling tick: FABSCOPE_SAMPLE_INTERVAL_MS, else from the fabric's size. */
export function sampleIntervalMs(
  config: Pick<ApiConfig, 'sampleIntervalMs'>,
  fabric: Pick<Fabric, 'links'>,
): number {
  return config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
}

/** Cabled ports → default interval, in increasing order; beyond the last, LARGEST_STEP. */
export const SAMPLE_INTERVAL_STEPS: readonly { maxPorts: number; intervalMs: number }[] = [
  { maxPorts: 20_000, intervalMs: 1000 }, // fat-tree-1152: 4,608 ports
  { maxPorts: 60_000, intervalMs: 2000 }, // fat-tree-6912: 41,472 ports
];
const LARGEST_STEP = { maxPorts: Number.POSITIVE_INFINITY, intervalMs: 10_000 }; // fat-tree-27648: 165,888 ports

/** `$XDG_STATE_HOME/fabscope`, else `$HOME/.local/state/fabscope` (XDG Base Directory), from `env` only. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'fabscope');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.local', 'state', 'fabscope');
  return undefined;
}

export const LIVE_SOURCES = ['tsdb', 'collectors'] as const;
export type LiveSource = (typeof LIVE_SOURCES)[number];

function liveSourceFrom(env: NodeJS.ProcessEnv): LiveSource | undefined {
  const value = env.FABSCOPE_LIVE_SOURCE;
  if (!value) return undefined;
  if (!(LIVE_SOURCES as readonly string[]).includes(value))
    throw new ConfigError(`FABSCOPE_LIVE_SOURCE must be one of ${LIVE_SOURCES.join(', ')}, got "${value}"`);
  return value as LiveSource;
}

/**
 * What FABSCOPE_LIVE_SOURCE=collectors needs besides itself, checked once the whole config is
 * known (the demo sets the TSDB's and the collectors' URLs itself).
 */
export function checkLiveSource(
  config: Pick<ApiConfig, 'liveSource' | 'prometheusUrl' | 'collectorUrls'>,
): void {
  if (config.liveSource !== 'collectors') return;
  if (!config.prometheusUrl)
    throw new ConfigError(
      'FABSCOPE_LIVE_SOURCE=collectors reads the live view beside a TSDB: set PROMETHEUS_URL (without one, the embedded store reads the collectors anyway)',
    );
  if (config.collectorUrls.length === 0)
    throw new ConfigError(
      'FABSCOPE_LIVE_SOURCE=collectors needs the collectors to read: set FABSCOPE_COLLECTOR_URLS',
    );
}

function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number 0..65535, got "${value}"`);
  return n;
}

function url(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
}

/**
 * A collector's address as a user writes it: `http://host:9464` means its `/metrics`, as
 * Prometheus' scrape config does; a URL with a path of its own is kept as it is.
 */
export function collectorUrl(value: string): string {
  const parsed = new URL(value);
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/metrics';
  return parsed.toString();
}

/** `a=b,c=d` → Map; each value checked by `parse`. */
function pairs<T>(
  name: string,
  value: string | undefined,
  parse: (v: string) => T | undefined,
): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = item.lastIndexOf('=');
    const parsed = eq > 0 ? parse(item.slice(eq + 1).trim()) : undefined;
    if (parsed === undefined)
      throw new ConfigError(`${name} must be a list like "key=value,key=value", got "${item}"`);
    map.set(item.slice(0, eq).trim(), parsed);
  }
  return map;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const interval = env.FABSCOPE_SAMPLE_INTERVAL_MS ? Number(env.FABSCOPE_SAMPLE_INTERVAL_MS) : undefined;
  if (interval !== undefined && (!Number.isInteger(interval) || interval < 100 || interval > 60_000)) {
    throw new ConfigError(
      `FABSCOPE_SAMPLE_INTERVAL_MS must be 100..60000, got "${env.FABSCOPE_SAMPLE_INTERVAL_MS}"`,
    );
  }
  const window = env.FABSCOPE_PROMETHEUS_RATE_WINDOW ?? '5s';
  if (!/^\d+(ms|s|m)$/.test(window)) {
    throw new ConfigError(
      `FABSCOPE_PROMETHEUS_RATE_WINDOW must be a PromQL duration like 5s, got "${window}"`,
    );
  }
  const maxQueries = env.FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES
    ? Number(env.FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES)
    : undefined;
  if (maxQueries !== undefined && (!Number.isInteger(maxQueries) || maxQueries < 1 || maxQueries > 64)) {
    throw new ConfigError(
      `FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES must be 1..64, got "${env.FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES}"`,
    );
  }
  const source = (env.FABSCOPE_METRICS_SOURCE || 'fabscope') as MetricsSource;
  if (!METRICS_SOURCES.includes(source)) {
    throw new ConfigError(
      `FABSCOPE_METRICS_SOURCE must be one of ${METRICS_SOURCES.join(', ')}, got "${source}"`,
    );
  }
  const topologyPath = env.FABSCOPE_TOPOLOGY || undefined;
  if (topologyPath !== undefined && !existsSync(topologyPath)) {
    throw new ConfigError(`FABSCOPE_TOPOLOGY names a file that does not exist: "${topologyPath}"`);
  }
  const timeout = env.FABSCOPE_REQUEST_TIMEOUT_MS ? Number(env.FABSCOPE_REQUEST_TIMEOUT_MS) : 30_000;
  if (!Number.isInteger(timeout) || timeout < 100 || timeout > 300_000) {
    throw new ConfigError(
      `FABSCOPE_REQUEST_TIMEOUT_MS must be 100..300000, got "${env.FABSCOPE_REQUEST_TIMEOUT_MS}"`,
    );
  }
  const allowedHosts = (env.FABSCOPE_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of allowedHosts) {
    if (!/^[a-z0-9.-]+$|^\[?[0-9a-f:.]+\]?$/.test(h)) {
      throw new ConfigError(`FABSCOPE_ALLOWED_HOSTS must be host names separated by commas, got "${h}"`);
    }
  }
  const routing = env.FABSCOPE_ROUTING || 'auto';
  if (routing !== 'minhop' && routing !== 'fattree' && routing !== 'auto') {
    throw new ConfigError(`FABSCOPE_ROUTING must be minhop, fattree or auto, got "${routing}"`);
  }
  const historySeconds = env.FABSCOPE_HISTORY_SECONDS ? Number(env.FABSCOPE_HISTORY_SECONDS) : undefined;
  if (
    historySeconds !== undefined &&
    (!Number.isInteger(historySeconds) || historySeconds < 10 || historySeconds > 86_400)
  ) {
    throw new ConfigError(
      `FABSCOPE_HISTORY_SECONDS must be 10..86400, got "${env.FABSCOPE_HISTORY_SECONDS}"`,
    );
  }
  const historyMaxBytes = env.FABSCOPE_HISTORY_MAX_BYTES ? Number(env.FABSCOPE_HISTORY_MAX_BYTES) : undefined;
  if (
    historyMaxBytes !== undefined &&
    (!Number.isInteger(historyMaxBytes) || historyMaxBytes < 2 ** 20 || historyMaxBytes > 2 ** 40)
  ) {
    throw new ConfigError(
      `FABSCOPE_HISTORY_MAX_BYTES must be a number of bytes 1048576..1099511627776, got "${env.FABSCOPE_HISTORY_MAX_BYTES}"`,
    );
  }
  const liveSource = liveSourceFrom(env);
  const fabricSource = (env.FABSCOPE_FABRIC || 'emulator') as FabricSourceKind;
  if (!FABRIC_SOURCE_KINDS.includes(fabricSource)) {
    throw new ConfigError(
      `FABSCOPE_FABRIC must be one of ${FABRIC_SOURCE_KINDS.join(', ')}, got "${env.FABSCOPE_FABRIC}"`,
    );
  }
  return {
    ...loggingAndUpstreams(env),
    fabricSource,
    topologyLive: liveTopologyConfig(env),
    pmThresholds: pmThresholdsFrom(env.FABSCOPE_PM_THRESHOLDS),
    jobs: jobsConfig(env),
    opafm: opafmConfig(env),
    lfts: lftsConfig(env),
    eventsDir: env.FABSCOPE_EVENTS_DIR || undefined,
    historySeconds,
    historyMaxBytes,
    dataDir: env.FABSCOPE_DATA_DIR ? resolve(env.FABSCOPE_DATA_DIR) : undefined,
    defaultDataDir: defaultDataDir(env),
    topologyPath,
    routing,
    host: env.HOST || '127.0.0.1',
    port: port('PORT', env.PORT, 8080),
    scenario: env.FABSCOPE_SCENARIO || 'ar-demo',
    prometheusUrl: url('PROMETHEUS_URL', env.PROMETHEUS_URL),
    emulatorUrl: url('FABSCOPE_EMULATOR_URL', env.FABSCOPE_EMULATOR_URL),
    collectorUrls: (env.FABSCOPE_COLLECTOR_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean)
      .map((u) => collectorUrl(url('FABSCOPE_COLLECTOR_URLS', u) as string)),
    apiToken: env.FABSCOPE_API_TOKEN || undefined,
    allowedHosts: allowedHosts.map((h) => h.replace(/^\[|\]$/g, '')),
    requestTimeoutMs: timeout,
    sampleIntervalMs: interval,
    prometheusRateWindow: window,
    tsdbMaxConcurrentQueries: maxQueries,
    liveSource,
    metricsSource: source,
    nodeExporterHosts: pairs(
      'FABSCOPE_NODE_EXPORTER_HOSTS',
      env.FABSCOPE_NODE_EXPORTER_HOSTS,
      (v) => v || undefined,
    ),
    devicePorts: pairs('FABSCOPE_DEVICE_PORTS', env.FABSCOPE_DEVICE_PORTS, (v) =>
      /^\d+$/.test(v) ? Number(v) : undefined,
    ),
  };
}
