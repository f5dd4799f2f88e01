import {
  buildScenario,
  channelOf,
  fatTreeRouting,
  routeBetween,
  routingFor,
  tablesAfterSweep,
} from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.ts';
import { counter } from './helpers.ts';

const LINE = 1152 * 12.38e9;
const hostTx = (
  before: ReturnType<Emulator['portCounters']>,
  after: ReturnType<Emulator['portCounters']>,
  ms: number,
) => {
  let flits = 0n;
  for (const port of after.ports) {
    if (port.nodeType !== 'host') continue;
    flits +=
      counter(after, port.nodeName, port.portNumber, 'XmitData') -
      counter(before, port.nodeName, port.portNumber, 'XmitData');
  }
  return (Number(flits) * after.dataUnitBytes * 1000) / ms;
};

describe('fat-tree-1152: permutation (seed 7), static routing then adaptive routing', () => {
  const fabric = buildScenario('fat-tree-1152');
  const tables = fatTreeRouting(fabric);

  it('loses bandwidth to ISL collisions statically; AR (threshold 7) brings host transmit to ≥ 90 % of 1152 × 12.38 GB/s', () => {
    const emulator = createEmulator({ fabric, tables, seed: 1 });
    expect(emulator.startFlows({ pattern: 'permutation', seed: 7 })).toHaveLength(1152);
    let before = emulator.portCounters();
    emulator.advance(1000);
    let after = emulator.portCounters();
    const stat = hostTx(before, after, 1000);
    expect(stat / LINE).toBeLessThan(0.75);
    emulator.setAdaptiveRouting({ enabled: true, threshold: 7 });
    emulator.advance(2000);
    const settled = emulator.listFlows().map((f) => f.path.join());
    before = emulator.portCounters();
    emulator.advance(5000);
    after = emulator.portCounters();
    expect(hostTx(before, after, 5000) / LINE).toBeGreaterThanOrEqual(0.9);
    // No oscillation under steady load.
    expect(emulator.listFlows().map((f) => f.path.join())).toEqual(settled);
  });

  // One run each way (static, AR); the sweep's tables are checked against what another process
  // rebuilds from GET /v1/routing, so the API's route inspector shows the paths flows take.
  it('a busy ISL goes down: static flows are lost until the sweep, AR reroutes them at its frequency', () => {
    const run = (ar: boolean) => {
      const emulator = createEmulator({ fabric, tables, routing: routingFor('fattree'), seed: 1 });
      emulator.startFlows({ pattern: 'permutation', seed: 7 });
      if (ar) emulator.setAdaptiveRouting({ enabled: true, lostRouteOnly: true });
      emulator.advance(500);
      const busy = emulator.listFlows()[0]?.path[1] as string;
      const [from, to] = busy.split('->') as [string, string];
      const link = emulator.fabric.links.find((l) => l.id === `${from}--${to}` || l.id === `${to}--${from}`);
      emulator.injectFault({ type: 'link-down', link: link?.id as string });
      const lost = () => emulator.listFlows().filter((f) => f.bytesPerSecond === 0).length;
      expect(lost()).toBeGreaterThan(0);
      emulator.advance(64);
      const afterAr = lost();
      emulator.advance(10_000);
      const doc = emulator.portCounters();
      const [node, port] = from.split('/') as [string, string];
      expect(counter(doc, node, Number(port), 'LinkDowned')).toBe(1n);
      return { emulator, afterAr, afterSweep: lost(), busy };
    };
    const { emulator, afterAr, afterSweep, busy } = run(false);
    expect(afterAr).toBeGreaterThan(0);
    expect(afterSweep).toBe(0);
    const state = emulator.routingState();
    expect(state).toMatchObject({ sweep: 1, engine: 'minhop-fallback', downLinks: [expect.any(String)] });
    const swept = tablesAfterSweep(fabric, state.engine, state.downLinks);
    for (const flow of emulator.listFlows()) {
      expect(flow.path).not.toContain(busy);
      const route = routeBetween(fabric, swept, flow.from, flow.to).channels.map(
        (c) => channelOf(fabric, c).id,
      );
      expect(flow.path).toEqual(route);
    }
    expect(run(true).afterAr).toBe(0);
  });
});
