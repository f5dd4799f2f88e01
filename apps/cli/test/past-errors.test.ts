import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface Direction {
  id: string;
  packetsPerSecond: number | null;
  errorsPerSecond: number | null;
  errors: Record<string, number | null>;
  categories: Record<string, number | null>;
}

/**
 * A past instant keeps what the live view had, in both stores, through the real processes
 * (emulator → collector → embedded store, or → a real Prometheus): an emulator fault counting
 * symbol errors from T0 is seen at T0 + 10 s after it is repaired — the errors, the PM category,
 * the packets of the traffic running — in `/links?time=` and in `/instant?time=`.
 */
// The two stores' demos run side by side (`concurrent`): each test reads only its own demo, and its
// fault is held for wall time (T0 + 12 s) that both can spend at once.
for (const storeKind of ['embedded', 'prometheus'] as const) {
  const name = `a past instant with the ${storeKind} store keeps errors, categories and packets`;
  describe(name, { concurrent: true }, () => {
    let demo: RunningDemo;
    const api = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${demo.apiUrl}/api/v1${path}`, init);
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
      return { status: response.status, body: (await response.json()) as any };
    };
    const post = (path: string, body: unknown) =>
      api(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const directions = async (query = '') =>
      (await api(`/links?limit=1000${query}`)).body.links as Direction[];

    beforeAll(async () => {
      const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
      demo = await startDemo({ config, prometheus: storeKind === 'prometheus' });
      await eventually(async () => expect((await api('/health')).body.status).toBe('ok'), 30_000);
    }, 60_000);
    afterAll(async () => {
      await demo?.stop();
    });

    it('an error injected at T0 is visible at time=T0+10 after the fault is gone', async () => {
      expect((await post('/traffic', { pattern: 'pairs', pairs: [['nodeA', 'nodeC']] })).status).toBe(200);
      const t0 = Date.now();
      expect(
        (await post('/faults', { type: 'symbol-errors', node: 'core1', port: 1, rate: 50 })).status,
      ).toBe(200);
      // Live: the directions the fault's errors count on, while the traffic runs.
      const erring = await eventually(async () => {
        const now = (await directions()).filter((d) => (d.errorsPerSecond ?? 0) > 0);
        expect(now.length).toBeGreaterThan(0);
        return now.map((d) => d.id);
      }, 30_000);
      // Held past T0 + 12 s, then repaired, until the live view counts no error any more.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, t0 + 12_000 - Date.now())));
      expect((await api('/faults', { method: 'DELETE' })).status).toBe(200);
      await eventually(async () => {
        const now = await directions();
        for (const id of erring) expect(now.find((d) => d.id === id)?.errorsPerSecond, id).toBe(0);
      }, 30_000);

      const at = new Date(t0 + 10_000).toISOString();
      const past = await directions(`&time=${at}`);
      for (const id of erring) {
        const d = past.find((p) => p.id === id) as Direction;
        expect(d.errorsPerSecond, id).toBeGreaterThan(0);
        expect(d.errors.symbolErrors, id).toBeGreaterThan(0);
        expect(d.categories.integrity, id).not.toBeNull();
      }
      // The traffic's packets are kept too.
      const hostA = past.find((d) => d.id === 'nodeA/1->edge1/1') as Direction;
      expect(hostA.packetsPerSecond).toBeGreaterThan(0);
      // The answer the dashboard draws: the same errors, in the stream's compact encoding.
      const topology = (await api('/topology')).body as { links: { id: string }[] };
      const message = (await api(`/instant?time=${at}`)).body as {
        errors: [number, number, number | null][];
      };
      const listed = new Set(message.errors.map(([c]) => c));
      for (const id of erring) {
        const [from, to] = id.split('->');
        const link = topology.links.findIndex((l) => l.id === `${from}--${to}` || l.id === `${to}--${from}`);
        const forward = topology.links[link]?.id === `${from}--${to}`;
        expect(listed.has(2 * link + (forward ? 0 : 1)), id).toBe(true);
      }
      expect((await api('/traffic', { method: 'DELETE' })).status).toBe(200);
    }, 90_000);
  });
}
