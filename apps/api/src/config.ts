/** Settings from the environment, checked once at start; every one is documented in the README. */
export interface ApiConfig {
  host: string;
  port: number;
  scenario: string;
  prometheusUrl: string | undefined;
  emulatorUrl: string | undefined;
  collectorUrls: string[];
  apiToken: string | undefined;
  sampleIntervalMs: number;
  prometheusRateWindow: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number 0..65535, got "${value}"`);
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

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const interval = Number(env.FABSCOPE_SAMPLE_INTERVAL_MS ?? 1000);
  if (!Number.isInteger(interval) || interval < 100 || interval > 60_000) {
    throw new ConfigError(`FABSCOPE_SAMPLE_INTERVAL_MS must be 100..60000, got "${env.FABSCOPE_SAMPLE_INTERVAL_MS}"`);
  }
  const window = env.FABSCOPE_PROMETHEUS_RATE_WINDOW ?? '5s';
  if (!/^\d+(ms|s|m)$/.test(window)) {
    throw new ConfigError(`FABSCOPE_PROMETHEUS_RATE_WINDOW must be a PromQL duration like 5s, got "${window}"`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: port('PORT', env.PORT, 8080),
    scenario: env.FABSCOPE_SCENARIO || 'ar-demo',
    prometheusUrl: url('PROMETHEUS_URL', env.PROMETHEUS_URL),
    emulatorUrl: url('FABSCOPE_EMULATOR_URL', env.FABSCOPE_EMULATOR_URL),
    collectorUrls: (env.FABSCOPE_COLLECTOR_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean)
      .map((u) => url('FABSCOPE_COLLECTOR_URLS', u) as string),
    apiToken: env.FABSCOPE_API_TOKEN || undefined,
    sampleIntervalMs: interval,
    prometheusRateWindow: window,
  };
}
