import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting, routingFor } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { type RunningApi, startApi } from '../src/server.ts';

// The API as `fabscope serve` wires it, driving a real emulator over HTTP: after the emulator's
// fabric manager sweeps around a failed ISL, /api/v1/route shows the new route.
describe('the API follows the fabric manager’s sweeps', () => {
  const fabric = buildScenario('ar-demo');
  let emulatorServer: EmulatorServer;
  let api: RunningApi;

  beforeAll(async () => {
    const emulator = createEmulator({
      fabric,
      tables: fatTreeRouting(fabric),
      routing: routingFor('fattree'),
      startTimeMs: Date.now(),
      sweepDelayMs: 200,
    });
    emulatorServer = await startEmulatorServer(emulator, { tickMs: 20, fromDateNow: true });
    const config = configFromEnv({
      PORT: '0',
      FABSCOPE_SCENARIO: 'ar-demo',
      FABSCOPE_EMULATOR_URL: emulatorServer.url,
      // Nothing listens there: this test reads routes, not counters.
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
      FABSCOPE_SAMPLE_INTERVAL_MS: '100',
    });
    api = await startApi(config, fabric);
  });
  afterAll(async () => {
    await api?.close();
    await emulatorServer?.close();
  });

  const route = async () => {
    const res = await fetch(`${api.url}/api/v1/route?from=nodeA&to=nodeC`);
    expect(res.status).toBe(200);
    return (await res.json()) as { links: string[]; engine: string };
  };

  it('a link-down sweep moves /api/v1/route off the failed ISL; the repair sweep brings it back', async () => {
    const before = await route();
    const isl = before.links[1] as string; // nodeA → edge → [edge → core] → edge → nodeC
    const [a, b] = isl.split('->') as [string, string];
    const link = fabric.links.find((l) => l.id === `${a}--${b}` || l.id === `${b}--${a}`)?.id as string;
    expect(link).toBeDefined();

    const down = await fetch(`${api.url}/api/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'link-down', link }),
    });
    expect(down.status).toBe(200);
    // Until the sweep the static route still points at the dead link, as on a real fabric.
    const after = await poll(route, (r) => !r.links.includes(isl));
    expect(after.links).toHaveLength(before.links.length);
    expect(after.links.some((l) => l.includes('core'))).toBe(true);

    const repair = await fetch(`${api.url}/api/v1/faults`, { method: 'DELETE' });
    expect(repair.status).toBe(200);
    const repaired = await poll(route, (r) => r.links.join() === before.links.join());
    expect(repaired.links).toEqual(before.links);
  });
});

/** Calls `read` until `done` holds (at most 10 s). */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in 10 s; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
