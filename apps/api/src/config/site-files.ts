import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type NodeNameMap,
  ParseError,
  type PmThresholdConfig,
  parseNodeNameMap,
  parsePmThresholds,
} from '@fabscope/topology';
import { ConfigError } from '../errors.ts';
import { parseCommandLine } from '../fabric-manager/run-command.ts';
import type { Environment } from './environment.ts';

export interface OpafmConfig {
  /** opafm.xml, whose <Common><Sm><AdaptiveRouting> the API reads and edits. */
  xmlPath: string;
  /** Run without a shell after each change (the FM's reload), as words; undefined: none. */
  apply: string[] | undefined;
}

export type JobsConfig =
  | { kind: 'slurm'; format: 'json' | 'text'; command: string; timeoutMs: number }
  | { kind: 'file'; path: string };

/** Where the subnet manager's tables are read from, and how often. */
export type LftsConfig = ({ kind: 'file'; path: string } | { kind: 'ibroute' | 'dump_fts' }) & {
  intervalMs: number;
};

/** `path`, which variable `name` names: a ConfigError when no such file exists. */
export function existing(name: string, path: string): string {
  if (!existsSync(path)) throw new ConfigError(`${name} names a file that does not exist: "${path}"`);
  return path;
}

/** The file variable `name` names, parsed; unreadable or unparsable (naming the line) is a ConfigError. */
export function parsedFile<T>(name: string, path: string, parse: (text: string) => T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${name}: cannot read "${path}": ${(error as Error).message}`);
  }
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof ParseError) throw new ConfigError(`${name}: ${error.inFile(path).message}`);
    throw error;
  }
}

/** FABSCOPE_PM_THRESHOLDS: an opafm.xml, `<Pm>` or `<PmThresholds>` file. */
export function pmThresholdsFrom(path: string | undefined): PmThresholdConfig | undefined {
  return path ? parsedFile('FABSCOPE_PM_THRESHOLDS', path, parsePmThresholds) : undefined;
}

/** FABSCOPE_NODE_NAME_MAP: the site's names by GUID, over the NodeDescriptions (topology's node-names.ts). */
export function nodeNameMapFrom(path: string | undefined): NodeNameMap | undefined {
  return path ? parsedFile('FABSCOPE_NODE_NAME_MAP', path, parseNodeNameMap) : undefined;
}

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
  return {
    discoverIntervalMs: env.FABSCOPE_DISCOVER_INTERVAL_MS,
    expectedPath: expectedPath && existing('FABSCOPE_EXPECTED_TOPOLOGY', expectedPath),
    driftStableSeconds: env.FABSCOPE_DRIFT_STABLE_SECONDS,
    maxVersions: env.FABSCOPE_TOPOLOGY_VERSIONS,
  };
}

/** FABSCOPE_OPAFM_XML (a file that exists) and FABSCOPE_OPAFM_APPLY (a command line, only with it). */
export function opafmConfig(env: Environment): OpafmConfig | undefined {
  const xmlPath = env.FABSCOPE_OPAFM_XML;
  const applyText = env.FABSCOPE_OPAFM_APPLY?.trim() || undefined;
  if (xmlPath === undefined) {
    if (applyText !== undefined)
      throw new ConfigError('FABSCOPE_OPAFM_APPLY is set without FABSCOPE_OPAFM_XML');
    return undefined;
  }
  existing('FABSCOPE_OPAFM_XML', xmlPath);
  if (applyText === undefined) return { xmlPath, apply: undefined };
  try {
    return { xmlPath, apply: parseCommandLine(applyText) };
  } catch (error) {
    throw new ConfigError(`FABSCOPE_OPAFM_APPLY: ${(error as Error).message}`);
  }
}

/** FABSCOPE_JOBS: `slurm` (squeue --json), `slurm-text` (squeue -h -o), or `file:PATH`. */
export function jobsConfig(env: Environment): JobsConfig | undefined {
  const value = env.FABSCOPE_JOBS;
  if (value === undefined) return undefined;
  if (value.startsWith('file:')) {
    return { kind: 'file', path: existing('FABSCOPE_JOBS', value.slice('file:'.length)) };
  }
  if (value !== 'slurm' && value !== 'slurm-text') {
    throw new ConfigError(`FABSCOPE_JOBS must be slurm, slurm-text or file:PATH, got "${value}"`);
  }
  return {
    kind: 'slurm',
    format: value === 'slurm' ? 'json' : 'text',
    command: env.FABSCOPE_SQUEUE,
    timeoutMs: env.FABSCOPE_SQUEUE_TIMEOUT_MS,
  };
}

/** FABSCOPE_LFTS: OpenSM's opensm-lfts.dump path (its directory must exist), or `ibroute` / `dump_fts`. */
export function lftsConfig(env: Environment): LftsConfig | undefined {
  const value = env.FABSCOPE_LFTS;
  if (value === undefined) return undefined;
  const tool = value === 'ibroute' || value === 'dump_fts' ? value : undefined;
  const intervalMs = env.FABSCOPE_LFTS_INTERVAL_MS ?? (tool ? 30_000 : 1000);
  if (tool) return { kind: tool, intervalMs };
  if (!existsSync(dirname(value))) {
    throw new ConfigError(`FABSCOPE_LFTS names a file in a directory that does not exist: "${value}"`);
  }
  return { kind: 'file', path: value, intervalMs };
}
