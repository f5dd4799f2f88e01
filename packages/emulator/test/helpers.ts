import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { createEmulator, type Emulator, type PortCountersDocument } from '../src/index.ts';

export const SEED_PAIRS: [string, string][] = [
  ['nodeA', 'nodeC'],
  ['nodeB', 'nodeD'],
];

export function arDemoEmulator(seed = 1): Emulator {
  const fabric = buildScenario('ar-demo');
  return createEmulator({ fabric, tables: fatTreeRouting(fabric), seed });
}

export type CounterName = 'XmitData' | 'RcvData' | 'XmitPkts' | 'RcvPkts' | 'XmitWait';

/** One counter of `node`'s `port` as a bigint. */
export function counter(doc: PortCountersDocument, node: string, port: number, name: CounterName): bigint {
  const entry = doc.ports.find((p) => p.nodeName === node && p.portNumber === port);
  if (!entry) throw new Error(`no port ${node}/${port} in the document`);
  return BigInt(entry.counters[name]);
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
