import { existsSync } from 'node:fs';
import { ConfigError } from '../errors.ts';

/** Live discovery, topology versions and drift (docs/architecture.md "Live topology and drift"). */
export interface LiveTopologyConfig {
  /** How often the topology is re-discovered on a real fabric (FABSCOPE_DISCOVER_INTERVAL_MS, default 60 s). */
  discoverIntervalMs: number;
  /** The intended design, any format parseTopology reads (FABSCOPE_EXPECTED_TOPOLOGY); unset: no drift. */
  expectedPath: string | undefined;
  /** How long a drift finding must hold before it is reported (FABSCOPE_DRIFT_STABLE_SECONDS, default 30). */
  driftStableSeconds: number;
  /** Topology versions kept, in memory and in the versions file (FABSCOPE_TOPOLOGY_VERSIONS, default 100). */
  maxVersions: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer ${min}..${max}, got "${raw}"`);
  }
  return n;
}

export function liveTopologyConfig(env: NodeJS.ProcessEnv): LiveTopologyConfig {
  const expectedPath = env.FABSCOPE_EXPECTED_TOPOLOGY || undefined;
  if (expectedPath !== undefined && !existsSync(expectedPath)) {
    throw new ConfigError(`FABSCOPE_EXPECTED_TOPOLOGY names a file that does not exist: "${expectedPath}"`);
  }
  return {
    discoverIntervalMs: integer(env, 'FABSCOPE_DISCOVER_INTERVAL_MS', 60_000, 1000, 86_400_000),
    expectedPath,
    driftStableSeconds: integer(env, 'FABSCOPE_DRIFT_STABLE_SECONDS', 30, 0, 86_400),
    maxVersions: integer(env, 'FABSCOPE_TOPOLOGY_VERSIONS', 100, 2, 10_000),
  };
}

/** The defaults, for a config built by hand (tests, the CLI) without the environment's say. */
export const DEFAULT_LIVE_TOPOLOGY: LiveTopologyConfig = liveTopologyConfig({});
