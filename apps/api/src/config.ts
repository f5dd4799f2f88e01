import { isAbsolute, join, resolve } from 'node:path';
import type { Fabric } from '@fabscope/topology';
import {
  type Environment,
  type FABRIC_SOURCE_KINDS,
  type LIVE_SOURCES,
  type LOG_LEVELS,
  readEnvironment,
} from './config/environment.ts';
import { ibPortsFrom } from './config/ib-ports.ts';
import {
  existing,
  jobsConfig,
  lftsConfig,
  liveTopologyConfig,
  nodeNameMapFrom,
  opafmConfig,
  pmThresholdsFrom,
} from './config/site-files.ts';
import { ConfigError } from './errors.ts';

export { ibPortsFrom } from './config/ib-ports.ts';
export { ConfigError } from './errors.ts';

/** The API's settings: configFromEnv's, which the CLI and tests override field by field. */
export type ApiConfig = ReturnType<typeof configFromEnv>;

export type FabricSourceKind = (typeof FABRIC_SOURCE_KINDS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LiveSource = (typeof LIVE_SOURCES)[number];

/** Fabrics up to this many ports are sampled every second by default, every counter family in each scrape. */
const SMALL_FABRIC_PORTS = 20_000;

/** The sampling tick when FABSCOPE_SAMPLE_INTERVAL_MS is unset: longer on big fabrics, slower to scrape (docs/scaling.md). */
export function defaultSampleIntervalMs(fabric: Pick<Fabric, 'links'>): number {
  const ports = fabric.links.length * 2;
  return ports <= SMALL_FABRIC_PORTS ? 1000 : ports <= 60_000 ? 2000 : 10_000;
}

/**
 * How often the embedded store asks for the error families (ECN marks are one): with every scrape on a fabric small
 * enough to be scraped with them every second, whatever tick was chosen, since a slow tick (SNMP agents walked for
 * seconds) is no big answer; undefined on a big fabric, the store's own rule (every max(30 s, 3 intervals)).
 */
export function errorScrapeIntervalMs(fabric: Pick<Fabric, 'links'>): number | undefined {
  return fabric.links.length * 2 <= SMALL_FABRIC_PORTS ? 0 : undefined;
}

/** The sampling tick: FABSCOPE_SAMPLE_INTERVAL_MS, else from the fabric's size. */
export function sampleIntervalMs(
  config: Pick<ApiConfig, 'sampleIntervalMs'>,
  fabric: Pick<Fabric, 'links'>,
): number {
  return config.sampleIntervalMs ?? defaultSampleIntervalMs(fabric);
}

/** `$XDG_STATE_HOME/fabscope`, else `$HOME/.local/state/fabscope` (XDG Base Directory), from `env` only. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'fabscope');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.local', 'state', 'fabscope');
  return undefined;
}

/** What FABSCOPE_LIVE_SOURCE=collectors needs besides itself, checked once the whole config is known. */
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

/** A collector's address: `http://host:9464` means its `/metrics`, as in Prometheus' scrape config. */
export function collectorUrl(value: string): string {
  const parsed = new URL(value);
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/metrics';
  return parsed.toString();
}

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `a=b,c=d` → Map; each value checked by `parse`. */
function pairs<T>(
  name: string,
  value: string | undefined,
  parse: (v: string) => T | undefined,
): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of listOf(value)) {
    const eq = item.lastIndexOf('=');
    const parsed = eq > 0 ? parse(item.slice(eq + 1).trim()) : undefined;
    if (parsed === undefined)
      throw new ConfigError(`${name} must be a list like "key=value,key=value", got "${item}"`);
    map.set(item.slice(0, eq).trim(), parsed);
  }
  return map;
}

function url(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
}

/** FABSCOPE_ALLOWED_HOSTS: host names or addresses, lower-cased, without IPv6 brackets. */
function allowedHosts(value: string | undefined): string[] {
  const hosts = listOf(value).map((h) => h.toLowerCase());
  for (const h of hosts) {
    if (!/^[a-z0-9.-]+$|^\[?[0-9a-f:.]+\]?$/.test(h)) {
      throw new ConfigError(`FABSCOPE_ALLOWED_HOSTS must be host names separated by commas, got "${h}"`);
    }
  }
  return hosts.map((h) => h.replace(/^\[|\]$/g, ''));
}

/** FABSCOPE_SNMP_TARGETS: a file that exists, required by FABSCOPE_FABRIC=snmp and only read with it. */
function snmpTargetsPath(env: Environment): string | undefined {
  if (env.FABSCOPE_FABRIC !== 'snmp') return undefined;
  if (!env.FABSCOPE_SNMP_TARGETS)
    throw new ConfigError('FABSCOPE_FABRIC=snmp needs FABSCOPE_SNMP_TARGETS (the switch agents, one a line)');
  return existing('FABSCOPE_SNMP_TARGETS', env.FABSCOPE_SNMP_TARGETS);
}

/** The files and URLs the environment names, checked to exist or parse. */
function sites(env: Environment) {
  const topologyPath = env.FABSCOPE_TOPOLOGY && existing('FABSCOPE_TOPOLOGY', env.FABSCOPE_TOPOLOGY);
  return {
    topologyLive: liveTopologyConfig(env),
    pmThresholds: pmThresholdsFrom(env.FABSCOPE_PM_THRESHOLDS),
    jobs: jobsConfig(env),
    opafm: opafmConfig(env),
    lfts: lftsConfig(env),
    topologyPath,
    nodeNames: nodeNameMapFrom(env.FABSCOPE_NODE_NAME_MAP),
    snmpTargetsPath: snmpTargetsPath(env),
    prometheusUrl: url('PROMETHEUS_URL', env.PROMETHEUS_URL),
    emulatorUrl: url('FABSCOPE_EMULATOR_URL', env.FABSCOPE_EMULATOR_URL),
    collectorUrls: listOf(env.FABSCOPE_COLLECTOR_URLS).map((u) =>
      collectorUrl(url('FABSCOPE_COLLECTOR_URLS', u) as string),
    ),
  };
}

/** The API's settings from the environment, every one checked once, at start (environment.ts). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const e = readEnvironment(env);
  return {
    ...sites(e),
    logLevel: e.FABSCOPE_LOG_LEVEL,
    // Unset: from the fabric's size, as sampleIntervalMs.
    emulatorTimeoutMs: e.FABSCOPE_EMULATOR_TIMEOUT_MS,
    // On `infiniband` an emulator, if any, is only a traffic source, never the fabric's routing or state.
    fabricSource: e.FABSCOPE_FABRIC,
    // Off by default: other tools and the SM's PerfMgr read the same counters (docs/real-fabrics.md).
    ibResetCounters: e.FABSCOPE_IB_RESET_COUNTERS === 'true',
    // Unset: every local port whose link is up (the CLI reads sysfs), one subnet each.
    ibPorts: ibPortsFrom(e.FABSCOPE_IB_PORTS),
    eventsDir: e.FABSCOPE_EVENTS_DIR,
    historySeconds: e.FABSCOPE_HISTORY_SECONDS,
    historyMaxBytes: e.FABSCOPE_HISTORY_MAX_BYTES,
    dataDir: e.FABSCOPE_DATA_DIR ? resolve(e.FABSCOPE_DATA_DIR) : undefined,
    // Where the history goes when FABSCOPE_DATA_DIR is unset (`fabscope serve`; the demo starts anew).
    defaultDataDir: defaultDataDir(env),
    routing: e.FABSCOPE_ROUTING,
    host: e.HOST,
    port: e.PORT,
    scenario: e.FABSCOPE_SCENARIO,
    apiToken: e.FABSCOPE_API_TOKEN,
    allowedHosts: allowedHosts(e.FABSCOPE_ALLOWED_HOSTS),
    requestTimeoutMs: e.FABSCOPE_REQUEST_TIMEOUT_MS,
    sampleIntervalMs: e.FABSCOPE_SAMPLE_INTERVAL_MS,
    prometheusRateWindow: e.FABSCOPE_PROMETHEUS_RATE_WINDOW,
    tsdbMaxConcurrentQueries: e.FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES,
    liveSource: e.FABSCOPE_LIVE_SOURCE,
    metricsSource: e.FABSCOPE_METRICS_SOURCE,
    // node_exporter `instance` (host:port) → node name; `device:port` or `device` → port number.
    nodeExporterHosts: pairs(
      'FABSCOPE_NODE_EXPORTER_HOSTS',
      e.FABSCOPE_NODE_EXPORTER_HOSTS,
      (v) => v || undefined,
    ),
    devicePorts: pairs('FABSCOPE_DEVICE_PORTS', e.FABSCOPE_DEVICE_PORTS, (v) =>
      /^\d+$/.test(v) ? Number(v) : undefined,
    ),
  };
}
