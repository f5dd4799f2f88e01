import { getMaxListeners, setMaxListeners } from 'node:events';
import type { FabricSnapshot, FabricSource, PortSample, TargetResult } from '../../fabric/port-sample.ts';
import { mapBounded } from '../run-tool.ts';
import { type LldpLink, lldpLinks } from './lldp-links.ts';
import { AgentTimeoutError, type AgentWalkOptions, walkAgent } from './snmp-agent.ts';
import { switchPorts } from './snmp-ports.ts';
import { decodeAnswer, type SwitchReading } from './snmp-tables.ts';
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
}

/** An SNMP fabric source; its last sweep's switches as read, and their cables as LLDP found them. */
export interface SnmpFabricSource extends FabricSource {
  readings(): SwitchReading[];
  links(): LldpLink[];
}

/** Whether an agent restarted since its last answer: sysUpTime went back (its counters began again). */
export function agentRestarted(previousTicks: number | undefined, ticks: number): boolean {
  return previousTicks !== undefined && ticks < previousTicks;
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
  const upTimes = new Map<string, number>();
  let links: LldpLink[] = [];
  let last: SwitchReading[] = [];
  return {
    name: `snmp:${fabric}`,
    readings: () => last,
    links: () => links,
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
          const reading = decodeAnswer(await walkOne(t, walk, signal));
          // Agents are walked in turns over seconds: each one's counters stand for its own walk, not the sweep's.
          const readAtMs = Math.round((startedMs + now()) / 2);
          const previous = upTimes.get(t.label);
          upTimes.set(t.label, reading.upTimeTicks);
          if (agentRestarted(previous, reading.upTimeTicks)) {
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
