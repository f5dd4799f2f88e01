import { readFile } from 'node:fs/promises';
import { type IbLocalPort, ibPortName } from '@fabscope/contracts/names';
import type { FabricSource } from '../fabric/port-sample.ts';
import { emulatorSource } from './emulator/emulator-source.ts';
import { gnmiSource } from './gnmi/gnmi-source.ts';
import { parseGnmiTargets } from './gnmi/gnmi-targets.ts';
import { localIbPorts } from './infiniband/ib-local-ports.ts';
import { subnetsSource } from './infiniband/ib-subnets-source.ts';
import { infinibandSource } from './infiniband/infiniband-source.ts';
import { omnipathSource, parseOpaTargets } from './omnipath/omnipath-source.ts';
import { snmpSource } from './snmp/snmp-source.ts';
import { parseSnmpTargets } from './snmp/snmp-targets.ts';

/** What `fabscope collect fabric` was told, as every source may read it. */
export interface FabricSourceSettings {
  url?: string | undefined;
  fabric?: string | undefined;
  targets?: string | undefined;
  ibnetdiscover: string;
  perfquery: string;
  reader: string;
  opapmaquery: string;
  timeoutMs: number;
  concurrency: number;
  /** The InfiniBand MAD reader's child process, as the running binary starts it. */
  ibPortReaderCommand: string[];
  /** `--reset-counters`: clear narrow PortCounters before they saturate (InfiniBand MAD reader). */
  'reset-counters'?: boolean | undefined;
  /** FABSCOPE_IB_PORTS: the local ports whose subnets are read; default every port up when there are several. */
  ibPorts?: readonly IbLocalPort[] | undefined;
  /** Where the local adapters are listed (tests give a tree of their own). */
  sysfsRoot?: string | undefined;
}

/** A source opened, and how long the registry may wait for one read of it. */
export interface OpenedFabricSource {
  source: FabricSource;
  readTimeoutMs: number;
  /** Ends what the source keeps open between reads (gNMI's streams), for a process that is done with it. */
  close?: () => void;
}

/** A setting a source cannot run with; its message names the flag. */
export class FabricSourceSettingsError extends Error {}

/** Every fabric source by its `--source` name: the one place a source is registered. */
export const FABRIC_SOURCES = {
  emulator: async (s: FabricSourceSettings): Promise<OpenedFabricSource> => {
    if (!s.url) throw new FabricSourceSettingsError('--source emulator needs --url (the emulator base URL)');
    return { source: emulatorSource(s.url), readTimeoutMs: 10_000 };
  },
  infiniband: async (s: FabricSourceSettings): Promise<OpenedFabricSource> => {
    if (s.reader !== 'mad' && s.reader !== 'perfquery') {
      throw new FabricSourceSettingsError(`--reader must be mad or perfquery, got "${s.reader}"`);
    }
    const reader = s.reader;
    const open = (localPort?: IbLocalPort) =>
      infinibandSource({
        ...(s.fabric ? { fabric: s.fabric } : {}),
        ibnetdiscover: s.ibnetdiscover,
        perfquery: s.perfquery,
        reader,
        madReader: { command: s.ibPortReaderCommand },
        resetCounters: s['reset-counters'] === true,
        timeoutMs: s.timeoutMs,
        concurrency: s.concurrency,
        localPort,
      });
    const readTimeoutMs = 20_000 + s.timeoutMs * 100;
    // The ports listed, else every port up when there are several; else the tools' default port, as before.
    const up = s.ibPorts ? undefined : localIbPorts(s.sysfsRoot);
    const ports = s.ibPorts ?? (up && up.length > 1 ? up : []);
    if (ports.length === 0) return { source: open(), readTimeoutMs };
    if (ports.length === 1) return { source: open(ports[0]), readTimeoutMs };
    const subnets = ports.map((port) => ({ name: ibPortName(port), source: open(port) }));
    return { source: subnetsSource(s.fabric ?? 'infiniband', subnets), readTimeoutMs };
  },
  omnipath: async (s: FabricSourceSettings): Promise<OpenedFabricSource> => {
    if (!s.targets) throw new FabricSourceSettingsError('--source omnipath needs --targets FILE');
    const targets = parseOpaTargets(await readFile(s.targets, 'utf8'));
    const source = omnipathSource({
      ...(s.fabric ? { fabric: s.fabric } : {}),
      targets,
      opapmaquery: s.opapmaquery,
      timeoutMs: s.timeoutMs,
      concurrency: s.concurrency,
    });
    const rounds = Math.max(1, Math.ceil(targets.length / s.concurrency));
    return { source, readTimeoutMs: s.timeoutMs * rounds + 1000 };
  },
  snmp: async (s: FabricSourceSettings): Promise<OpenedFabricSource> => {
    if (!s.targets) throw new FabricSourceSettingsError('--source snmp needs --targets FILE');
    let targets: ReturnType<typeof parseSnmpTargets>;
    try {
      targets = parseSnmpTargets(await readFile(s.targets, 'utf8'));
    } catch (error) {
      throw new FabricSourceSettingsError(`--targets ${s.targets}: ${(error as Error).message}`);
    }
    const source = snmpSource({
      ...(s.fabric ? { fabric: s.fabric } : {}),
      targets,
      timeoutMs: s.timeoutMs,
      concurrency: s.concurrency,
    });
    // A silent agent fails its first request after the timeout and one retry; answering ones take milliseconds.
    const rounds = Math.max(1, Math.ceil(targets.length / s.concurrency));
    return { source, readTimeoutMs: s.timeoutMs * 2 * rounds + 5000 };
  },
  gnmi: async (s: FabricSourceSettings): Promise<OpenedFabricSource> => {
    if (!s.targets) throw new FabricSourceSettingsError('--source gnmi needs --targets FILE');
    let source: ReturnType<typeof gnmiSource>;
    try {
      // Streams run in the background; a read copies their latest values (the first waits up to 5 s for them).
      const targets = parseGnmiTargets(await readFile(s.targets, 'utf8'));
      source = gnmiSource({ ...(s.fabric ? { fabric: s.fabric } : {}), targets });
    } catch (error) {
      throw new FabricSourceSettingsError(`--targets ${s.targets}: ${(error as Error).message}`);
    }
    return { source, readTimeoutMs: 10_000, close: () => source.close() };
  },
} as const satisfies Record<string, (settings: FabricSourceSettings) => Promise<OpenedFabricSource>>;

export type FabricSourceName = keyof typeof FABRIC_SOURCES;

/** Opens the source named by `--source`: the one place a source is chosen. */
export async function openFabricSource(
  name: string | undefined,
  settings: FabricSourceSettings,
): Promise<OpenedFabricSource> {
  if (name === undefined || !Object.hasOwn(FABRIC_SOURCES, name)) {
    const names = Object.keys(FABRIC_SOURCES);
    const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
    throw new FabricSourceSettingsError(`--source must be ${list}, got "${name ?? ''}"`);
  }
  return FABRIC_SOURCES[name as FabricSourceName](settings);
}
