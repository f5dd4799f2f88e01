import { readFileSync } from 'node:fs';
import { type ApiConfig, type LldpCable, type LldpSwitch, lldpFabric, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  type FabricSnapshot,
  type FabricSource,
  type LldpLink,
  parseSnmpTargets,
  type SnmpFabricSource,
  type SnmpTarget,
  type SwitchReading,
  snmpSource,
  startMetricsServer,
  switchGuid,
  switchPortOptics,
  type TargetResult,
} from '@fabscope/collectors';
import type { Fabric } from '@fabscope/topology';
import { WEB_ROOT } from './demo/demo.ts';
import { startPieces } from './pieces.ts';

export interface ServeSnmpOptions {
  collectorPort?: number;
  /** The agents, instead of FABSCOPE_SNMP_TARGETS' file (the demo's own). */
  targets?: SnmpTarget[];
  /** Per SNMP request; a silent agent costs this twice (one retry). Default 2000 ms. */
  timeoutMs?: number;
  /** Agents walked at once (default 16); a simulator answering every agent on one thread wants few. */
  concurrency?: number;
  /** Where a target's failure and its recovery are told; default stderr. */
  log?: (line: string) => void;
}

/** The switches and cables as the source's last sweep read them, in the fabric builder's terms. */
export function lldpInputs(
  readings: readonly SwitchReading[],
  links: readonly LldpLink[],
): { switches: LldpSwitch[]; cables: LldpCable[] } {
  const switches = readings.map((r) => ({
    name: r.name,
    guid: switchGuid(r),
    ports: r.interfaces.map((i, k) => ({
      number: k + 1,
      name: i.name,
      speedMbps: i.speedMbps,
      up: i.operUp,
    })),
  }));
  const end = (e: LldpLink['a']) => ({ node: e.switchName, portName: e.portName, port: e.portNumber });
  return { switches, cables: links.map((l) => ({ a: end(l.a), b: end(l.b), seenFrom: l.seenFrom })) };
}

/** FABSCOPE_SNMP_TARGETS' agents; a bad line is named. */
function targetsOf(config: Pick<ApiConfig, 'snmpTargetsPath'>): SnmpTarget[] {
  const path = config.snmpTargetsPath;
  if (!path)
    throw new Error('FABSCOPE_FABRIC=snmp needs FABSCOPE_SNMP_TARGETS (the switch agents, one a line)');
  try {
    return parseSnmpTargets(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`FABSCOPE_SNMP_TARGETS ${path}: ${(error as Error).message}`);
  }
}

/** A host's GUID-shaped key, as the source keys a switch without a chassis MAC: a hash of its name. */
const hostGuid = (name: string) => switchGuid({ name, chassisId: '' });

/**
 * The source with each target's failure told once, with its reason, and its recovery: a switch that stops
 * answering leaves its ports unread (no counters, never zeros) while the log says why.
 */
function toldSource(
  source: SnmpFabricSource,
  log: (line: string) => void,
): FabricSource & { lastTargets(): readonly TargetResult[] | null } {
  const failing = new Map<string, string>();
  let lastTargets: readonly TargetResult[] | null = null;
  return {
    name: source.name,
    lastTargets: () => lastTargets,
    async read(signal): Promise<FabricSnapshot> {
      const snapshot = await source.read(signal);
      lastTargets = snapshot.targets ?? [];
      for (const t of snapshot.targets ?? []) {
        const was = failing.get(t.target);
        if (t.outcome === 'ok') {
          if (was !== undefined) log(`snmp ${t.target}: answers again`);
          failing.delete(t.target);
        } else if (was !== t.outcome) {
          log(`snmp ${t.target}: ${t.outcome}, its ports unread: ${t.reason ?? 'no reason given'}`);
          failing.set(t.target, t.outcome);
        }
      }
      return snapshot;
    },
  };
}

/**
 * Rediscovery for the live topology: the fabric LLDP describes as the collector's newest full walk read it, so a
 * cable plugged or pulled shows as a topology change. Each call asks for a full walk at the next sweep (the sweeps
 * between read only counters), so what it draws is at most one rediscovery interval old. While an agent did not
 * answer the last sweep it fails, naming the agent: a switch unread is not a switch gone.
 */
export function lldpRediscovery(
  fabricName: string,
  source: Pick<SnmpFabricSource, 'readings' | 'links' | 'discover'>,
  lastTargets: () => readonly TargetResult[] | null,
): () => Promise<Fabric> {
  return async () => {
    source.discover();
    const targets = lastTargets();
    if (targets === null) throw new Error('no SNMP sweep yet since the start');
    const silent = targets.filter((t) => t.outcome !== 'ok');
    if (silent.length > 0)
      throw new Error(`LLDP not rediscovered: ${silent.map((t) => `${t.target} ${t.outcome}`).join(', ')}`);
    const { switches, cables } = lldpInputs(source.readings(), source.links());
    return lldpFabric(fabricName, switches, cables, hostGuid).fabric;
  };
}

/** Discovery sweeps before the fabric is drawn without the agents that have not answered. */
const DISCOVERY_SWEEPS = 3;

/**
 * The fabric LLDP describes, swept again while an agent has not answered (snmpsimd, like a busy switch, can be
 * slow to its first walk), up to DISCOVERY_SWEEPS; throws, naming each agent's failure, when none answered.
 */
export async function discoverLldpFabric(source: SnmpFabricSource, timeoutMs: number): Promise<Fabric> {
  let snapshot: FabricSnapshot | null = null;
  for (let sweep = 1; sweep <= DISCOVERY_SWEEPS; sweep++) {
    snapshot = await source.read(AbortSignal.timeout(timeoutMs));
    if ((snapshot.targets ?? []).every((t) => t.outcome === 'ok')) break;
  }
  const found = snapshot as FabricSnapshot;
  if (source.readings().length === 0) {
    const why = (found.targets ?? []).map((t) => `${t.target}: ${t.outcome} (${t.reason ?? '?'})`);
    throw new Error(`no SNMP agent answered the discovery sweep: ${why.join('; ')}`);
  }
  for (const t of found.targets ?? []) {
    if (t.outcome !== 'ok')
      process.stderr.write(`fabscope serve: ${t.target} not drawn: ${t.reason ?? t.outcome}\n`);
  }
  const { switches, cables } = lldpInputs(source.readings(), source.links());
  const { fabric, skipped } = lldpFabric(found.fabric, switches, cables, hostGuid);
  for (const s of skipped) process.stderr.write(`fabscope serve: LLDP ${s}\n`);
  return fabric;
}

/**
 * `FABSCOPE_FABRIC=snmp fabscope serve`: the Ethernet switches FABSCOPE_SNMP_TARGETS lists, drawn as their LLDP
 * neighbours cable them (at start, then again every FABSCOPE_DISCOVER_INTERVAL_MS from the newest sweep's LLDP
 * walk), their IF-MIB, PFC and ECN counters swept by an in-process collector into the store.
 */
export async function serveSnmp(config: ApiConfig, options: ServeSnmpOptions = {}) {
  const targets = options.targets ?? targetsOf(config);
  const timeoutMs = options.timeoutMs ?? 2000;
  const log = options.log ?? ((line: string) => process.stderr.write(`fabscope serve: ${line}\n`));
  return startPieces(async (stops, stop) => {
    const concurrency = options.concurrency ?? 16;
    const source = snmpSource({ fabric: 'ethernet', targets, timeoutMs, concurrency });
    const fabric = await discoverLldpFabric(source, timeoutMs * 2 * targets.length + 5000);
    const told = toldSource(source, log);
    const { answer } = createFabricRegistry({
      source: told,
      timeoutMs: timeoutMs * 2 * Math.ceil(targets.length / concurrency) + 5000,
    });
    const collector = await startMetricsServer(answer, {
      host: '127.0.0.1',
      port: options.collectorPort ?? 0,
    });
    stops.push(() => collector.close());
    const api = await startApi(
      {
        ...config,
        fabricSource: 'snmp',
        collectorUrls:
          config.prometheusUrl && config.liveSource !== 'collectors' ? config.collectorUrls : [collector.url],
      },
      fabric,
      {
        webRoot: WEB_ROOT,
        tools: {
          discover: lldpRediscovery(fabric.name, source, told.lastTargets),
          portOptics: (guid, port) => switchPortOptics(source.readings(), guid, port),
        },
      },
    );
    stops.push(() => api.close());
    return { api, fabric, collector, stop };
  });
}
