import { chooseRoutingEngine, routingFor, scenarioInfo, scenarioNames } from '@fabscope/topology';
import { parse as parseYaml } from 'yaml';
import { createEmulator, type Emulator } from './emulator.ts';
import type { AdaptiveRoutingConfig } from './routing/ar-config.ts';
import { parseDuration, QuantityError } from './units.ts';

/** A scenario file (docs/scenario-files.md): a fabric, a seed and phases, measured from the counters. */
export interface ScenarioFile {
  name: string;
  description?: string;
  /** A built-in scenario (`npx fabscope scenarios`). */
  fabric: string;
  /** `fattree` (default when the fabric is a fat tree) or `minhop`. */
  routing?: 'fattree' | 'minhop';
  seed?: number;
  sweepDelay?: number | string;
  adaptiveRouting?: Partial<AdaptiveRoutingConfig>;
  phases: ScenarioPhase[];
}

export interface ScenarioActions {
  stopTraffic?: boolean;
  adaptiveRouting?: Partial<AdaptiveRoutingConfig>;
  faults?: object[];
  traffic?: object[];
}

export interface ScenarioPhase extends ScenarioActions {
  name: string;
  duration: number | string;
  events?: (ScenarioActions & { at: number | string })[];
  /** Hosts or routers whose traffic (and CPU) the report lists. */
  report?: string[];
}

export interface PhaseResult {
  name: string;
  durationS: number;
  /** Payload bytes/s sent by all hosts (not routers), averaged over the phase. */
  hostTransmitBytesPerSecond: number;
  /** Busiest switch-to-switch link direction over the phase, fraction of line rate (null: no ISL). */
  maxIslUtilization: number | null;
  hosts: {
    name: string;
    transmitBytesPerSecond: number;
    receiveBytesPerSecond: number;
    cpuUtilization: number;
  }[];
}

export interface ScenarioResult {
  name: string;
  fabric: string;
  seed: number;
  phases: PhaseResult[];
}

export class ScenarioFileError extends Error {
  override name = 'ScenarioFileError';
}

const TOP_KEYS = [
  'name',
  'description',
  'fabric',
  'routing',
  'seed',
  'sweepDelay',
  'adaptiveRouting',
  'phases',
];
const ACTION_KEYS = ['stopTraffic', 'adaptiveRouting', 'faults', 'traffic'];
const PHASE_KEYS = ['name', 'duration', 'events', 'report', ...ACTION_KEYS];

/** Parses YAML (JSON is YAML) and checks the shape; traffic and faults are checked when they run. */
export function parseScenarioFile(text: string): ScenarioFile {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ScenarioFileError(`not valid YAML or JSON: ${(error as Error).message}`);
  }
  const object = (value: unknown, where: string, keys: string[]): Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ScenarioFileError(`${where} must be a mapping`);
    }
    for (const key of Object.keys(value)) {
      if (!keys.includes(key))
        throw new ScenarioFileError(`${where}: unknown key "${key}"; known: ${keys.join(', ')}`);
    }
    return value as Record<string, unknown>;
  };
  const top = object(raw, 'the file', TOP_KEYS);
  if (typeof top.name !== 'string' || top.name === '') throw new ScenarioFileError('name is required');
  if (typeof top.fabric !== 'string' || !scenarioNames().includes(top.fabric)) {
    throw new ScenarioFileError(
      `fabric must be one of ${scenarioNames().join(', ')}; got ${JSON.stringify(top.fabric)}`,
    );
  }
  if (top.routing !== undefined && top.routing !== 'fattree' && top.routing !== 'minhop') {
    throw new ScenarioFileError('routing must be fattree or minhop');
  }
  if (top.seed !== undefined && !Number.isInteger(top.seed))
    throw new ScenarioFileError('seed must be an integer');
  if (!Array.isArray(top.phases) || top.phases.length === 0)
    throw new ScenarioFileError('phases must be a non-empty list');
  const duration = (value: unknown, where: string) => {
    try {
      return parseDuration(where, value);
    } catch (error) {
      if (error instanceof QuantityError) throw new ScenarioFileError(error.message);
      throw error;
    }
  };
  if (top.sweepDelay !== undefined) duration(top.sweepDelay, 'sweepDelay');
  top.phases.forEach((p, i) => {
    const phase = object(p, `phases[${i}]`, PHASE_KEYS);
    if (typeof phase.name !== 'string') throw new ScenarioFileError(`phases[${i}].name is required`);
    if (!(duration(phase.duration, `phases[${i}].duration`) > 0)) {
      throw new ScenarioFileError(`phases[${i}].duration must be > 0`);
    }
    for (const key of ['faults', 'traffic', 'events', 'report']) {
      if (phase[key] !== undefined && !Array.isArray(phase[key]))
        throw new ScenarioFileError(`phases[${i}].${key} must be a list`);
    }
    ((phase.events as unknown[] | undefined) ?? []).forEach((e, j) => {
      const event = object(e, `phases[${i}].events[${j}]`, ['at', ...ACTION_KEYS]);
      duration(event.at, `phases[${i}].events[${j}].at`);
    });
  });
  return top as unknown as ScenarioFile;
}

export function emulatorForScenario(file: ScenarioFile, startTimeMs = 0): Emulator {
  const scenario = scenarioInfo(file.fabric);
  const fabric = scenario.build();
  const routing = routingFor(chooseRoutingEngine(file.routing, scenario.routing));
  const emulator = createEmulator({
    fabric,
    tables: routing(fabric),
    routing,
    seed: file.seed ?? 1,
    startTimeMs,
    ...(file.sweepDelay === undefined
      ? {}
      : { sweepDelayMs: parseDuration('sweepDelay', file.sweepDelay) * 1000 }),
  });
  if (file.adaptiveRouting) emulator.setAdaptiveRouting(file.adaptiveRouting);
  return emulator;
}

export interface RunOptions {
  /** Virtual seconds per wall second; 0 (default) runs as fast as it can. */
  speed?: number;
  onPhase?: (result: PhaseResult) => void;
  /** Use this emulator (already built from the file) instead of building one. */
  emulator?: Emulator;
}

const STEP_MS = 100;

export async function runScenario(file: ScenarioFile, options: RunOptions = {}): Promise<ScenarioResult> {
  const { speed = 0 } = options;
  if (!(speed >= 0) || !Number.isFinite(speed))
    throw new ScenarioFileError(`speed must be a number ≥ 0, got ${speed}`);
  const emulator = options.emulator ?? emulatorForScenario(file);
  const phases: PhaseResult[] = [];
  const wallStart = performance.now();
  let virtualElapsed = 0;
  const pace = async (ms: number) => {
    virtualElapsed += ms;
    if (speed === 0) return;
    const due = wallStart + virtualElapsed / speed;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  for (const phase of file.phases) {
    const durationMs = parseDuration('duration', phase.duration) * 1000;
    const events = (phase.events ?? [])
      .map((e) => ({ ...e, atMs: parseDuration('at', e.at) * 1000 }))
      .filter((e) => e.atMs < durationMs)
      .sort((a, b) => a.atMs - b.atMs);
    apply(emulator, phase, phase.name);
    const before = measure(emulator);
    let at = 0;
    for (const event of [...events, { atMs: durationMs } as (typeof events)[number]]) {
      while (at < event.atMs) {
        const step = Math.min(STEP_MS, event.atMs - at);
        emulator.advance(step);
        at += step;
        await pace(step);
      }
      if (event.atMs < durationMs) apply(emulator, event, `${phase.name} at ${event.at}`);
    }
    const after = measure(emulator);
    const result = phaseResult(emulator, phase, durationMs, before, after);
    phases.push(result);
    options.onPhase?.(result);
  }
  return { name: file.name, fabric: file.fabric, seed: file.seed ?? 1, phases };
}

function apply(emulator: Emulator, actions: ScenarioActions, where: string): void {
  try {
    if (actions.stopTraffic) emulator.stopAllFlows();
    if (actions.adaptiveRouting) emulator.setAdaptiveRouting(actions.adaptiveRouting);
    for (const fault of actions.faults ?? []) emulator.injectFault(fault);
    for (const item of actions.traffic ?? []) emulator.startFlows(item as never);
  } catch (error) {
    throw new ScenarioFileError(`${where}: ${(error as Error).message}`);
  }
}

interface Snapshot {
  timeMs: number;
  tx: Map<string, bigint>;
  rx: Map<string, bigint>;
  isl: Map<string, { units: bigint; rateGbps: number }>;
  unit: number;
}

function measure(emulator: Emulator): Snapshot {
  const doc = emulator.portCounters();
  const tx = new Map<string, bigint>();
  const rx = new Map<string, bigint>();
  const isl = new Map<string, { units: bigint; rateGbps: number }>();
  for (const port of doc.ports) {
    if (port.nodeType !== 'switch') {
      tx.set(port.nodeName, (tx.get(port.nodeName) ?? 0n) + BigInt(port.counters.XmitData));
      rx.set(port.nodeName, (rx.get(port.nodeName) ?? 0n) + BigInt(port.counters.RcvData));
    } else if (port.remote && emulator.fabric.nodeByName.get(port.remote.nodeName)?.type === 'switch') {
      isl.set(`${port.nodeName}/${port.portNumber}`, {
        units: BigInt(port.counters.XmitData),
        rateGbps: port.rateGbps,
      });
    }
  }
  return { timeMs: doc.timeMs, tx, rx, isl, unit: doc.dataUnitBytes };
}

function phaseResult(
  emulator: Emulator,
  phase: ScenarioPhase,
  durationMs: number,
  before: Snapshot,
  after: Snapshot,
): PhaseResult {
  const seconds = durationMs / 1000;
  // Counters can restart inside a phase (a restart fault): a negative difference counts as 0.
  const delta = (a: bigint | undefined, b: bigint | undefined) => {
    const d = (b ?? 0n) - (a ?? 0n);
    return d > 0n ? Number(d) : 0;
  };
  const rate = (units: number) => (units * after.unit) / seconds;
  let hostTx = 0;
  for (const node of emulator.fabric.nodes) {
    if (node.type === 'host') hostTx += rate(delta(before.tx.get(node.name), after.tx.get(node.name)));
  }
  let maxIsl: number | null = null;
  for (const [id, end] of after.isl) {
    const used = rate(delta(before.isl.get(id)?.units, end.units)) / ((end.rateGbps * 1e9) / 8);
    maxIsl = Math.max(maxIsl ?? 0, used);
  }
  const loads = new Map(emulator.hostLoads().map((h) => [h.name, h]));
  return {
    name: phase.name,
    durationS: seconds,
    hostTransmitBytesPerSecond: hostTx,
    maxIslUtilization: maxIsl,
    hosts: (phase.report ?? []).map((name) => ({
      name,
      transmitBytesPerSecond: rate(delta(before.tx.get(name), after.tx.get(name))),
      receiveBytesPerSecond: rate(delta(before.rx.get(name), after.rx.get(name))),
      cpuUtilization: loads.get(name)?.cpuUtilization ?? 0,
    })),
  };
}
