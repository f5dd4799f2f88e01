import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import { FlowPaths } from '../src/flow-paths.ts';

/** The sampler's tick, stepped by the test (FlowPaths reads the flows once per tick). */
function ticks() {
  const listeners = new Set<() => void>();
  return {
    onTick(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    tick() {
      for (const l of listeners) l();
    },
  };
}

/** An ar-demo emulator, its client, a tick clock and the index under test (stopped by `stop`). */
async function setUp(maxFlows?: number) {
  const fabric = buildScenario('ar-demo');
  const server = await startEmulatorServer(
    createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
    { tickMs: 20, fromDateNow: true },
  );
  const client = new EmulatorClient(server.url, 5000);
  // Every read of the index, to wait for it (a request to the emulator) instead of for a time.
  const reads: Promise<unknown>[] = [];
  const flowsPage = client.flowsPage.bind(client);
  client.flowsPage = (...args) => {
    const read = flowsPage(...args);
    reads.push(read);
    return read;
  };
  const readsDone = async () => {
    await Promise.allSettled(reads);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const clock = ticks();
  const paths = new FlowPaths(client, clock, Date.now, maxFlows);
  const stop = async () => {
    paths.stop();
    await server.close().catch(() => undefined);
  };
  return { server, client, clock, paths, stop, readsDone };
}

describe("a route's flows read once per tick, not once per question", () => {
  it('answers from the tick’s read, even with the emulator gone; asks the emulator when cold', async () => {
    const { server, client, clock, paths, stop, readsDone } = await setUp();
    try {
      await client.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
      // Cold: asked of the emulator, and the index read starts.
      const cold = await paths.between('nodeA', 'nodeC');
      expect(cold.map((f) => [f.from, f.to])).toEqual([['nodeA', 'nodeC']]);
      expect(await paths.between('nodeB', 'nodeD')).toEqual([]);
      // Warm: from the tick's read; the emulator is not asked (it is gone).
      await readsDone();
      clock.tick();
      await readsDone();
      await server.close();
      const warm = await paths.between('nodeA', 'nodeC');
      expect(warm.map((f) => f.id)).toEqual(cold.map((f) => f.id));
      expect(warm[0]?.path.length).toBeGreaterThan(0);
      expect(await paths.between('nodeC', 'nodeA')).toEqual([]);
      // A tick whose read fails drops the index: the next question asks the emulator (and fails).
      clock.tick();
      await readsDone();
      await expect(paths.between('nodeA', 'nodeC')).rejects.toThrow();
    } finally {
      await stop();
    }
  });

  it('with more flows than one page holds, keeps no index: each question asks the emulator', async () => {
    const { server, client, clock, paths, stop, readsDone } = await setUp(1);
    try {
      await client.startFlows({
        pattern: 'pairs',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
      });
      expect(await paths.between('nodeA', 'nodeC')).toHaveLength(1);
      clock.tick();
      await readsDone();
      // Two flows, a page of one: no index, so with the emulator gone the question fails.
      await server.close();
      await expect(paths.between('nodeA', 'nodeC')).rejects.toThrow();
    } finally {
      await stop();
    }
  });
});
