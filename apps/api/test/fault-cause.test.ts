import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FabricEvent, MemoryEventLog } from '../src/events/event-log.ts';
import { explainLinkStates } from '../src/events/link-state-reasons.ts';
import { faultTimeMs, RecordingEmulatorClient } from '../src/events/recording-emulator.ts';

// On demo:ibsim the counters (link states too) are stamped with the emulator's clock, which runs behind the API's by
// up to a tick: the first sweep after a Faults-tab unlink could be stamped before the fault was noted, and the link
// down read "not caused through fabscope" while its repair, seconds later, read "through fabscope".
describe('a fault through the API explains the link change the next reading shows', () => {
  const fabric = buildScenario('ar-demo');
  const link = fabric.links.find((l) => l.kind === 'isl')?.id as string;
  const START = 1_700_000_000_000;
  let wallMs = START;
  let server: EmulatorServer;
  const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: START });

  beforeAll(async () => {
    // The emulator catches up with the wall clock at each request, never on its own (a tick far away), and its
    // clock runs 25 ms behind the API's (a late server start, a tick not yet run).
    server = await startEmulatorServer(emulator, { clock: () => wallMs - 25, tickMs: 3_600_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A link-state event as the store derives it from a reading of the emulator's ports, at the reading's stamp. */
  const reading = (): FabricEvent => {
    const doc = emulator.portCounters();
    const [a] = link.split('--');
    const port = doc.ports.find((p) => `${p.nodeName}/${p.portNumber}` === a);
    return {
      timeMs: doc.timeMs,
      kind: 'link-state',
      subject: link,
      detail: port?.linkState === 'down' ? 'link down' : 'link up',
    };
  };

  it('logs the unlink and its repair as caused through fabscope, though the answer came after the reading’s stamp', async () => {
    const log = new MemoryEventLog();
    // The API's clock: each look at it is 20 ms after the one before (a request, its answer).
    const now = () => {
      wallMs += 20;
      return wallMs;
    };
    const client = new RecordingEmulatorClient(server.url, 5000, undefined, log, now);
    wallMs += 1000;
    await client.injectFault({ type: 'link-down', link });
    const down = reading();
    expect(down.detail).toBe('link down');
    wallMs += 3000;
    await client.clearFaults();
    // On ibsim the port comes back when the subnet manager next sweeps: read after the emulator caught up.
    wallMs += 1500;
    await client.listFaults();
    const up = reading();
    expect(up.detail).toBe('link up');
    const explained = explainLinkStates([...log.list(0, Number.MAX_SAFE_INTEGER), down, up]).filter(
      (e) => e.kind === 'link-state',
    );
    expect(explained.map((e) => e.detail)).toEqual([
      'link down (link-down through fabscope)',
      'link up (repair everything through fabscope)',
    ]);
  });

  it('takes the emulator’s time of a fault only when earlier than the request and the clocks agree', () => {
    expect(faultTimeMs(10_000, 9_990)).toBe(9_990);
    expect(faultTimeMs(10_000, 10_050)).toBe(10_000);
    expect(faultTimeMs(100_000, 0)).toBe(100_000); // another clock altogether
    expect(faultTimeMs(10_000, Number.NaN)).toBe(10_000);
  });
});
