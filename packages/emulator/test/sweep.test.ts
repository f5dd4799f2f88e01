import {
  buildScenario,
  channelOf,
  fatTreeRouting,
  routeBetween,
  routingFor,
  tablesAfterSweep,
} from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.ts';

describe('the fabric manager’s sweep, as another process sees it', () => {
  it('reports each sweep; tables rebuilt from the report route every flow as the emulator does', () => {
    const fabric = buildScenario('fat-tree-1152');
    const emulator = createEmulator({
      fabric,
      tables: fatTreeRouting(fabric),
      routing: routingFor('fattree'),
      sweepDelayMs: 1000,
    });
    expect(emulator.routingState()).toEqual({ sweep: 0, engine: 'fattree', downLinks: [], sweptAtMs: null });
    emulator.startFlows({ pattern: 'permutation', seed: 7 });
    const busy = emulator.listFlows()[0]?.path[1] as string;
    const [a, b] = busy.split('->') as [string, string];
    const link = fabric.links.find((l) => l.id === `${a}--${b}` || l.id === `${b}--${a}`)?.id as string;
    emulator.injectFault({ type: 'link-down', link });
    emulator.advance(999);
    expect(emulator.routingState().sweep).toBe(0);
    emulator.advance(1);
    const state = emulator.routingState();
    expect(state).toEqual({ sweep: 1, engine: 'minhop-fallback', downLinks: [link], sweptAtMs: 1000 });

    const tables = tablesAfterSweep(fabric, state.engine, state.downLinks);
    const flows = emulator.listFlows();
    expect(flows.every((f) => !f.path.includes(busy))).toBe(true);
    for (const flow of flows) {
      const expected = routeBetween(fabric, tables, flow.from, flow.to).channels.map(
        (c) => channelOf(fabric, c).id,
      );
      expect(flow.path).toEqual(expected);
    }
  });
});
