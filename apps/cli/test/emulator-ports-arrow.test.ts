import { emulatorSource, portSamplesFromEmulator, portSamplesFromEmulatorArrow } from '@fabscope/collectors';
import { createEmulator, type Emulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, routingFor } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';

// The emulator's `/v1/ports` in its two forms — JSON (the contract's document) and the Arrow IPC
// stream the fabric collector asks for — read into the same snapshot, port by port and counter by
// counter, on every kind of fabric, with faults making ports down and error counters non-zero.
function emulatorOf(scenario: string, engine: 'fattree' | 'minhop'): Emulator {
  const fabric = buildScenario(scenario);
  const routing = routingFor(engine);
  return createEmulator({ fabric, tables: routing(fabric), routing, seed: 3 });
}

describe("the emulator's ports, JSON and Arrow", () => {
  it.each([
    ['ar-demo', 'fattree'],
    ['opa-ethernet-router', 'minhop'],
    ['lustre-storage', 'minhop'],
    ['single-switch-32', 'minhop'],
  ] as const)('%s: the Arrow form reads as the JSON form does', (scenario, engine) => {
    const emulator = emulatorOf(scenario, engine);
    const fabric = buildScenario(scenario);
    const cable = fabric.links[0]?.id as string;
    emulator.injectFault({ type: 'link-down', link: cable });
    const other = fabric.links[1]?.id as string;
    emulator.injectFault({ type: 'symbol-errors', link: other, rate: 1000 });
    emulator.advance(2500);
    const json = portSamplesFromEmulator(JSON.parse(Buffer.concat(emulator.portCountersJson()).toString()));
    const arrow = portSamplesFromEmulatorArrow(emulator.portCountersArrow());
    // The Arrow form adds its layout token (its fixed columns); everything else is the JSON's.
    const { layout, ...read } = arrow;
    expect(layout).toBeDefined();
    expect(read).toEqual(json);
    expect(arrow.ports.some((p) => !p.linkUp)).toBe(true);
    expect(arrow.ports.some((p) => (p.errors?.symbolErrors ?? 0) > 0)).toBe(true);
    // A counter a fabric lacks stays absent, never 0 (the router's Ethernet ports have no VL15Dropped).
    if (scenario === 'opa-ethernet-router')
      expect(arrow.ports.some((p) => p.errors !== undefined && !('vl15Dropped' in p.errors))).toBe(true);
  });

  it('is served as format=arrow, read by the fabric source over HTTP; other formats are refused', async () => {
    const emulator = emulatorOf('ar-demo', 'fattree');
    const server = await startEmulatorServer(emulator);
    try {
      const arrow = await fetch(`${server.url}/v1/ports?format=arrow`);
      expect(arrow.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
      const json = await fetch(`${server.url}/v1/ports`);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      const snapshot = await emulatorSource(server.url).read(AbortSignal.timeout(5000));
      expect(snapshot.ports).toHaveLength(((await json.json()) as { ports: unknown[] }).ports.length);
      for (const [query, reason] of [
        ['format=xml', /format is json \(default\) or arrow/],
        ['format=arrow&format=json', /format is json/],
        ['limit=5', /unknown parameter "limit"/],
      ] as const) {
        const refused = await fetch(`${server.url}/v1/ports?${query}`);
        expect(refused.status, query).toBe(400);
        expect(((await refused.json()) as { error: string }).error, query).toMatch(reason);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a stream cut short or without its metadata, naming what is wrong', () => {
    const bytes = emulatorOf('ar-demo', 'fattree').portCountersArrow();
    for (const cut of [bytes.byteLength - 9, Math.floor(bytes.byteLength / 2), 40]) {
      expect(() => portSamplesFromEmulatorArrow(bytes.subarray(0, cut)), String(cut)).toThrow(
        /emulator \/v1\/ports Arrow stream (unreadable|lacks)/,
      );
    }
    expect(() => portSamplesFromEmulatorArrow(new Uint8Array(0))).toThrow(
      /emulator \/v1\/ports Arrow stream/,
    );
  });
});
