import {
  buildScenario,
  emptyTables,
  FabricBuilder,
  fatTreeRouting,
  generatedGuid,
  scenarioNames,
} from '@fabscope/topology';
import {
  createEmulator,
  type Emulator,
  type PortCounterName,
  type PortCountersDocument,
} from '../src/index.ts';

export const SEED_PAIRS: [string, string][] = [
  ['nodeA', 'nodeC'],
  ['nodeB', 'nodeD'],
];

export function arDemoEmulator(seed = 1): Emulator {
  const fabric = buildScenario('ar-demo');
  return createEmulator({ fabric, tables: fatTreeRouting(fabric), seed });
}

export type CounterName = PortCounterName;

/** One counter of `node`'s `port` as a bigint. */
export function counter(doc: PortCountersDocument, node: string, port: number, name: CounterName): bigint {
  const entry = doc.ports.find((p) => p.nodeName === node && p.portNumber === port);
  if (!entry) throw new Error(`no port ${node}/${port} in the document`);
  const value = entry.counters[name];
  if (value === undefined) throw new Error(`${node}/${port} has no ${name} (its fabric lacks it)`);
  return BigInt(value);
}

/** Payload bytes/s a port sent over `ms` of virtual time, from its XmitData counter. */
export function measuredTxRate(emulator: Emulator, node: string, port: number, ms: number): number {
  const before = emulator.portCounters();
  emulator.advance(ms);
  const after = emulator.portCounters();
  const units = counter(after, node, port, 'XmitData') - counter(before, node, port, 'XmitData');
  return (Number(units) * after.dataUnitBytes * 1000) / ms;
}

/** ar-demo ISL ports of edge1: port 3 faces core1, port 4 faces core2. */
export const EDGE1_TO_CORE1 = 3;
export const EDGE1_TO_CORE2 = 4;

/** Seed 000's lab: opa-node — opa-edge — router — eth-switch — eth-node (the topology scenario when present). */
export function routerEmulator(seed = 1): Emulator {
  const fabric = scenarioNames().includes('opa-ethernet-router')
    ? buildScenario('opa-ethernet-router')
    : (() => {
        const b = new FabricBuilder('opa-ethernet-router', 'omnipath');
        b.addNode({ name: 'opa-node', type: 'host', guid: generatedGuid(0, 0), portCount: 1 });
        b.addNode({ name: 'eth-node', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
        b.addNode({ name: 'router', type: 'router', guid: generatedGuid(2, 0), portCount: 2 });
        b.addNode({ name: 'opa-edge', type: 'switch', guid: generatedGuid(1, 0), portCount: 48, tier: 1 });
        b.addNode({ name: 'eth-switch', type: 'switch', guid: generatedGuid(1, 1), portCount: 32, tier: 1 });
        b.connect('opa-node', 1, 'opa-edge', 1, 100, 'host');
        b.connect('router', 1, 'opa-edge', 2, 100, 'host');
        b.connect('router', 2, 'eth-switch', 1, 100, 'host', { fabricType: 'ethernet' });
        b.connect('eth-node', 1, 'eth-switch', 2, 100, 'host', { fabricType: 'ethernet' });
        return b.build();
      })();
  return createEmulator({ fabric, tables: emptyTables(fabric, 'none'), seed });
}

/** Seed 004's lab: 32 hosts on one 48-port switch. */
export function singleSwitchEmulator(seed = 1): Emulator {
  const fabric = scenarioNames().includes('single-switch-32')
    ? buildScenario('single-switch-32')
    : (() => {
        const b = new FabricBuilder('single-switch-32', 'omnipath');
        b.addNode({ name: 'switch1', type: 'switch', guid: generatedGuid(1, 0), portCount: 48, tier: 1 });
        for (let h = 1; h <= 32; h++) {
          const name = `node${String(h).padStart(2, '0')}`;
          b.addNode({ name, type: 'host', guid: generatedGuid(0, h - 1), portCount: 1 });
          b.connect(name, 1, 'switch1', h, 100, 'host');
        }
        return b.build();
      })();
  return createEmulator({ fabric, tables: fatTreeRouting(fabric), seed });
}

/** Bytes/s a port received over `ms`, from its RcvData counter. */
export function measuredRxRate(emulator: Emulator, node: string, port: number, ms: number): number {
  const before = emulator.portCounters();
  emulator.advance(ms);
  const after = emulator.portCounters();
  const units = counter(after, node, port, 'RcvData') - counter(before, node, port, 'RcvData');
  return (Number(units) * after.dataUnitBytes * 1000) / ms;
}
