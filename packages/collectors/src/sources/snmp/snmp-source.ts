import { getMaxListeners, setMaxListeners } from 'node:events';
import type { FabricSnapshot, FabricSource, PortSample, TargetResult } from '../../fabric/port-sample.ts';
import { mapBounded } from '../run-tool.ts';
import { type LldpLink, lldpLinks } from './lldp-links.ts';
import {
  AgentTimeoutError,
  type AgentWalkOptions,
  IF_MOVING_COLUMNS,
  IFX_MOVING_COLUMNS,
  walkAgent,
} from './snmp-agent.ts';
import { switchPorts } from './snmp-ports.ts';
import { type AgentAnswer, decodeAnswer, type SnmpTable, type SwitchReading } from './snmp-tables.ts';
import type { SnmpTarget } from './snmp-targets.ts';

export interface SnmpSourceOptions extends Partial<AgentWalkOptions> {
  fabric?: string;
  targets: SnmpTarget[];
  /** Agents walked at once. */
  concurrency?: number;
  /** How one agent is walked: net-snmp by default; tests give recorded answers. */
  walkAgent?: typeof walkAgent;
  /** The clock agents' walks are stamped by (Unix ms). */
  now?: () => number;
  /**
   * Sweeps between full walks of an agent: in between only sysUpTime and the moving columns are read, so a renamed
   * port, a new speed or a re-cabled LLDP neighbour shows within this many sweeps (1: every sweep in full).
   */
  fullEvery?: number;
}

/** The default of `fullEvery`: at a 10 s sweep, names, speeds and LLDP neighbours are at most 5 minutes old. */
export const FULL_WALK_EVERY = 30;

/** An SNMP fabric source; its last sweep's switches as read, and their cables as LLDP found them. */
export interface SnmpFabricSource extends FabricSource {
  readings(): SwitchReading[];
  links(): LldpLink[];
  /** The next read walks every agent in full (discovery): names, speeds and LLDP neighbours read again. */
  discover(): void;
}

/** Whether an agent restarted since its last answer: sysUpTime went back (its counters began again). */
export function agentRestarted(previousTicks: number | undefined, ticks: number): boolean {
  return previousTicks !== undefined && ticks < previousTicks;
}

function withoutColumns(table: SnmpTable, columns: readonly number[]): SnmpTable {
  const out: SnmpTable = {};
  for (const [index, row] of Object.entries(table)) {
    const kept = { ...row };
    for (const c of columns) delete kept[String(c)];
    out[index] = kept;
  }
  return out;
}

/** What a full walk says that does not move between sweeps: its answer without the moving columns. */
export function staticPart(answer: AgentAnswer): AgentAnswer {
  // The pause and ECN tables are counters through and through: nothing of them is kept.
  const { congestion: _moving, ...rest } = answer;
  return {
    ...rest,
    ifTable: withoutColumns(answer.ifTable, IF_MOVING_COLUMNS),
    ifXTable: withoutColumns(answer.ifXTable, IFX_MOVING_COLUMNS),
  };
}

function overlay(base: SnmpTable, fresh: SnmpTable): SnmpTable {
  const out: SnmpTable = { ...base };
  for (const [index, row] of Object.entries(fresh)) out[index] = { ...base[index], ...row };
  return out;
}

/** A counters walk completed by the static part of the last full one; what the walk read wins. */
export function withStatic(base: AgentAnswer, fresh: AgentAnswer): AgentAnswer {
  const empty = (t: SnmpTable) => Object.keys(t).length === 0;
  // The full walk's rows must not stand in for counters the agent no longer gives.
  if (empty(fresh.ifXTable)) throw new Error('no ifXTable (64-bit counters) in the answer');
  return {
    upTimeTicks: fresh.upTimeTicks,
    sysName: fresh.sysName ?? base.sysName,
    lldpLocChassisId: fresh.lldpLocChassisId ?? base.lldpLocChassisId,
    lldpLocSysName: fresh.lldpLocSysName ?? base.lldpLocSysName,
    ifTable: overlay(base.ifTable, fresh.ifTable),
    ifXTable: overlay(base.ifXTable, fresh.ifXTable),
    lldpLocPortTable: empty(fresh.lldpLocPortTable) ? base.lldpLocPortTable : fresh.lldpLocPortTable,
    lldpRemTable: empty(fresh.lldpRemTable) ? base.lldpRemTable : fresh.lldpRemTable,
    ...(fresh.congestion ? { congestion: fresh.congestion } : {}),
    ...(base.entity ? { entity: base.entity } : {}),
  };
}

/** Whether a counters walk found the interfaces the full walk did: a row added or gone asks for a full walk. */
function sameRows(base: AgentAnswer, fresh: AgentAnswer): boolean {
  const a = Object.keys(base.ifXTable);
  const b = Object.keys(fresh.ifXTable);
  return a.length === b.length && b.every((k) => k in base.ifXTable);
}

/** Ethernet switches read by SNMP: IF-MIB 64-bit counters per port, the cables from LLDP-MIB. */
export function snmpSource(options: SnmpSourceOptions): SnmpFabricSource {
  const fabric = options.fabric ?? 'ethernet';
  const walk: AgentWalkOptions = {
    timeoutMs: options.timeoutMs ?? 2000,
    retries: options.retries ?? 1,
    maxRepetitions: options.maxRepetitions ?? 40,
    inFlight: options.inFlight ?? 4,
  };
  const concurrency = options.concurrency ?? 16;
  const walkOne = options.walkAgent ?? walkAgent;
  const now = options.now ?? Date.now;
  const fullEvery = Math.max(1, options.fullEvery ?? FULL_WALK_EVERY);
  const upTimes = new Map<string, number>();
  /** Per agent: the static part of its last full walk, and the sweeps read since it. */
  const statics = new Map<string, { answer: AgentAnswer; sweeps: number }>();
  let links: LldpLink[] = [];
  let last: SwitchReading[] = [];
  return {
    name: `snmp:${fabric}`,
    readings: () => last,
    links: () => links,
    discover: () => statics.clear(),
    async read(signal): Promise<FabricSnapshot> {
      // Each agent walked at once listens for the sweep's abort: more than Node's default 10 is no leak.
      if (getMaxListeners(signal) < concurrency + 10) setMaxListeners(concurrency + 10, signal);
      const outcomes = await mapBounded(options.targets, concurrency, async (t) => {
        const started = performance.now();
        const startedMs = now();
        const result = (outcome: TargetResult['outcome'], reason?: string): TargetResult => ({
          target: t.label,
          durationSeconds: (performance.now() - started) / 1000,
          outcome,
          ...(reason === undefined ? {} : { reason }),
        });
        try {
          const kept = statics.get(t.label);
          const full = kept === undefined || kept.sweeps + 1 >= fullEvery;
          const fresh = await walkOne(t, walk, signal, full ? 'full' : 'counters');
          const answer = full || !kept ? fresh : withStatic(kept.answer, fresh);
          const reading = decodeAnswer(answer);
          if (full) statics.set(t.label, { answer: staticPart(fresh), sweeps: 0 });
          else if (kept && sameRows(kept.answer, fresh)) kept.sweeps++;
          else statics.delete(t.label);
          // Agents are walked in turns over seconds: each one's counters stand for its own walk, not the sweep's.
          const readAtMs = Math.round((startedMs + now()) / 2);
          const previous = upTimes.get(t.label);
          upTimes.set(t.label, reading.upTimeTicks);
          if (agentRestarted(previous, reading.upTimeTicks)) {
            // Its names, speeds and neighbours may have changed with it: the next sweep walks it in full.
            if (!full) statics.delete(t.label);
            const reason = `agent restarted: sysUpTime went back from ${previous} to ${reading.upTimeTicks} ticks`;
            return { reading: null, result: result('error', reason) };
          }
          return { reading, readAtMs, result: result('ok') };
        } catch (error) {
          signal.throwIfAborted();
          const reason = error instanceof Error ? error.message : String(error);
          return {
            reading: null,
            result: result(error instanceof AgentTimeoutError ? 'timeout' : 'error', reason),
          };
        }
      });
      const read = outcomes.flatMap((o) => (o.reading ? [{ reading: o.reading, readAtMs: o.readAtMs }] : []));
      const readings = read.map((o) => o.reading);
      const byName = new Map<string, SwitchReading>(readings.map((r) => [r.name, r]));
      links = lldpLinks(readings);
      last = readings;
      const ports: PortSample[] = read.flatMap((o) => switchPorts(o.reading, byName, o.readAtMs));
      return { fabric, fabricType: 'ethernet', ports, targets: outcomes.map((o) => o.result) };
    },
  };
}
