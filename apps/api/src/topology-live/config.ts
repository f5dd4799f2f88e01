import { existsSync } from 'node:fs';
import { type Environment, readEnvironment } from '../config/environment.ts';
import { ConfigError } from '../errors.ts';

/** Live discovery, topology versions and drift (docs/architecture.md "Live topology and drift"). */
export interface LiveTopologyConfig {
  /** How often the topology is re-discovered on a real fabric (FABSCOPE_DISCOVER_INTERVAL_MS). */
  discoverIntervalMs: number;
  /** The intended design, any format parseTopology reads (FABSCOPE_EXPECTED_TOPOLOGY); unset: no drift. */
  expectedPath: string | undefined;
  /** How long a drift finding must hold before it is reported (FABSCOPE_DRIFT_STABLE_SECONDS). */
  driftStableSeconds: number;
  /** Topology versions kept, in memory and in the versions file (FABSCOPE_TOPOLOGY_VERSIONS). */
  maxVersions: number;
}

export function liveTopologyConfig(env: Environment): LiveTopologyConfig {
  const expectedPath = env.FABSCOPE_EXPECTED_TOPOLOGY;
  if (expectedPath !== undefined && !existsSync(expectedPath)) {
    throw new ConfigError(`FABSCOPE_EXPECTED_TOPOLOGY names a file that does not exist: "${expectedPath}"`);
  }
  return {
    discoverIntervalMs: env.FABSCOPE_DISCOVER_INTERVAL_MS,
    expectedPath,
    driftStableSeconds: env.FABSCOPE_DRIFT_STABLE_SECONDS,
    maxVersions: env.FABSCOPE_TOPOLOGY_VERSIONS,
  };
}

/** The defaults, for a config built by hand (tests, the CLI) without the environment's say. */
export const DEFAULT_LIVE_TOPOLOGY: LiveTopologyConfig = liveTopologyConfig(readEnvironment({}));
