import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '../../src/index.ts';

describe('GET /v1/ethernet', () => {
  const fabric = buildScenario('roce-leafspine');
  const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), seed: 1 });
  let server: EmulatorServer;
  let wallMs = 0;

  beforeAll(async () => {
    server = await startEmulatorServer(emulator, { tickMs: 20, clock: () => wallMs });
    emulator.startFlows({ pattern: 'incast', to: 'host33', from: ['host1', 'host17'] });
    wallMs += 1000;
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers every Ethernet port's pause, marks and CNPs as decimal strings, and where it congests", async () => {
    emulator.advance(1000);
    const response = await fetch(`${server.url}/v1/ethernet`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      ports: Record<string, string | number>[];
      congestion: { full: { link: string }[]; paused: { link: string; pausedFor: string }[] };
    };
    // 128 host ports, 128 leaf host ports, 32 ISLs seen from both ends.
    expect(body.ports).toHaveLength(128 * 2 + 32 * 2);
    const leaf3 = body.ports.find((p) => p.nodeName === 'leaf3' && p.portNumber === 1);
    expect(leaf3).toMatchObject({ priority: 3, rxPauseFrames: '0', discards: '0' });
    expect(BigInt(leaf3?.ecnMarkedPackets as string)).toBeGreaterThan(0n);
    expect(body.congestion.full.map((f) => f.link)).toEqual(['leaf3/1->host33/1']);
    expect(body.congestion.paused.every((p) => p.pausedFor === 'leaf3/1->host33/1')).toBe(true);
    expect(body.congestion.paused.map((p) => p.link)).toContain('host1/1->leaf1/1');
  });

  it('refuses parameters it does not take', async () => {
    const response = await fetch(`${server.url}/v1/ethernet?priority=3`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/unknown parameter "priority"/);
  });
});
