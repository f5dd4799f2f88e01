import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { configFromEnv } from '@fabscope/api';
import { startTrafficPairs } from '@fabscope/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

const root = resolve(import.meta.dirname, '../../..');

interface LinkState {
  id: string;
  utilization: number | null;
  transmitWaitFraction: number | null;
  linkUp: boolean | null;
  stale: boolean;
}

/**
 * Seed 002 through the whole pipeline: emulator → collector → store → API, with the embedded store
 * or a real Prometheus server (pipeline-embedded.test.ts, pipeline-prometheus.test.ts: one file
 * each, so the two run side by side).
 */
export function seed002EndToEnd(storeKind: 'embedded' | 'prometheus'): void {
  describe(`seed 002 end to end with the ${storeKind} store`, () => {
    let demo: RunningDemo;
    const api = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${demo.apiUrl}/api/v1${path}`, init);
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
      return { status: response.status, body: (await response.json()) as any };
    };
    const post = (path: string, body: unknown, method = 'POST') =>
      api(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const summary = async () => (await api('/summary')).body.hostTransmitBytesPerSecond as number | null;
    const islFromEdge1 = async () => {
      const { links } = (await api('/links?kind=isl')).body as { links: LinkState[] };
      return links.filter((l) => l.id.startsWith('edge1/')).map((l) => l.utilization ?? Number.NaN);
    };
    const link = async (id: string) => {
      const { links } = (await api('/links')).body as { links: LinkState[] };
      return links.find((l) => l.id === id) as LinkState;
    };

    beforeAll(async () => {
      const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
      demo = await startDemo({ config, prometheus: storeKind === 'prometheus' });
      await eventually(async () => expect((await api('/health')).body.status).toBe('ok'), 30_000);
    }, 60_000);
    afterAll(async () => {
      await demo?.stop();
    });
    // Each test starts from an idle, healthy fabric with static routing and sets up its own traffic.
    beforeEach(async () => {
      expect((await api('/traffic', { method: 'DELETE' })).status).toBe(200);
      expect((await post('/adaptive-routing', { enabled: false }, 'PUT')).status).toBe(200);
      expect((await api('/faults', { method: 'DELETE' })).status).toBe(200);
    });

    it('reports the store it reads from', async () => {
      expect((await api('/health')).body.store).toBe(storeKind);
    });

    it('one pair alone runs at 99 % of line rate: 12.2–12.5 GB/s', async () => {
      await startTrafficPairs(demo.apiUrl, [['nodeA', 'nodeC']]);
      await eventually(async () => {
        const total = await summary();
        expect(total).toBeGreaterThanOrEqual(12.2e9);
        expect(total).toBeLessThanOrEqual(12.5e9);
      });
    });

    it('two pairs under static routing share one ISL: 12.0–13.0 GB/s, one ISL full, the other idle', async () => {
      await startSeedPairs(demo.apiUrl);
      await eventually(async () => {
        const total = await summary();
        expect(total).toBeGreaterThanOrEqual(12.0e9);
        expect(total).toBeLessThanOrEqual(13.0e9);
        const [a, b] = (await islFromEdge1()).sort((x, y) => y - x);
        expect(a).toBeGreaterThanOrEqual(0.95);
        expect(b).toBeLessThanOrEqual(0.05);
        expect((await link('edge1/4->core2/1')).utilization).toBeGreaterThanOrEqual(0.95);
        const hostA = (await link('nodeA/1->edge1/1')).utilization as number;
        expect(hostA).toBeGreaterThan(0.45);
        expect(hostA).toBeLessThan(0.55);
      });
    });

    it('XmitWait: edge1→core2 and the nodeA/nodeB host ports wait about half the time; other ports not', async () => {
      await startSeedPairs(demo.apiUrl);
      await eventually(async () => {
        for (const id of ['edge1/4->core2/1', 'nodeA/1->edge1/1', 'nodeB/1->edge1/2']) {
          const wait = (await link(id)).transmitWaitFraction as number;
          expect(wait, id).toBeGreaterThan(0.4);
          expect(wait, id).toBeLessThan(0.6);
        }
        for (const id of ['core2/2->edge2/4', 'edge2/1->nodeC/1', 'edge1/3->core1/1'])
          expect((await link(id)).transmitWaitFraction, id).toBeLessThan(0.05);
        expect((await link('edge1/4->core2/1')).linkUp).toBe(true);
      });
    });

    it('adaptive routing (threshold 7) spreads them over both cores: 24.2–25.0 GB/s', async () => {
      await startSeedPairs(demo.apiUrl);
      const changed = await post('/adaptive-routing', { enabled: true, threshold: 7 }, 'PUT');
      expect(changed.body).toMatchObject({ enabled: true, threshold: 7 });
      await eventually(async () => {
        const total = await summary();
        expect(total).toBeGreaterThanOrEqual(24.2e9);
        expect(total).toBeLessThanOrEqual(25.0e9);
        for (const u of await islFromEdge1()) expect(u).toBeGreaterThanOrEqual(0.95);
        // Spread over both cores, nobody waits for credit any more.
        for (const id of ['edge1/4->core2/1', 'nodeA/1->edge1/1', 'nodeB/1->edge1/2'])
          expect((await link(id)).transmitWaitFraction, id).toBeLessThan(0.05);
      }, 20_000);
    });

    if (storeKind === 'prometheus') {
      it('every Grafana panel query returns data with traffic running and errors counting; no recording rule is loaded', async () => {
        await startSeedPairs(demo.apiUrl);
        await post('/adaptive-routing', { enabled: true, threshold: 7 }, 'PUT');
        // The error panel lists ports with errors only (the collector writes error rates where not 0).
        expect(
          (await post('/faults', { type: 'symbol-errors', node: 'core1', port: 1, rate: 10 })).status,
        ).toBe(200);
        const query = async (expr: string) => {
          const url = new URL('/api/v1/query', demo.prometheusUrl);
          url.searchParams.set('query', expr);
          const answer = (await (await fetch(url)).json()) as { status: string; data: { result: unknown[] } };
          expect(answer.status, expr).toBe('success');
          return answer.data.result;
        };
        const dashboard = JSON.parse(
          readFileSync(resolve(root, 'deploy/grafana/fabscope-fabric.json'), 'utf8'),
        ) as {
          panels: { title: string; targets: { expr: string }[] }[];
        };
        const panelQueries = dashboard.panels.flatMap((p) =>
          p.targets.map((t) => ({ title: p.title, expr: t.expr.replaceAll('$fabric', '.*') })),
        );
        expect(panelQueries.length).toBeGreaterThanOrEqual(dashboard.panels.length);
        await eventually(async () => {
          for (const { title, expr } of panelQueries)
            expect((await query(expr)).length, title).toBeGreaterThan(0);
        }, 30_000);
        // Prometheus evaluates the alerts only: the rates are the collector's.
        const rules = (await (await fetch(new URL('/api/v1/rules', demo.prometheusUrl))).json()) as {
          data: { groups: { rules: { type: string }[] }[] };
        };
        expect(rules.data.groups.flatMap((g) => g.rules).filter((r) => r.type === 'recording')).toEqual([]);
        // The collector's host total reaches what the two pairs send with adaptive routing.
        await eventually(async () => {
          const [total] = (await query('sum(fabscope_fabric_host_data_bytes_per_second)')) as {
            value: [number, string];
          }[];
          expect(Number(total?.value[1])).toBeGreaterThan(24.2e9);
        }, 20_000);
      }, 45_000);
    }

    it('stops its traffic', async () => {
      await startSeedPairs(demo.apiUrl);
      expect((await api('/traffic')).body.flows).toHaveLength(2);
      expect((await api('/traffic', { method: 'DELETE' })).status).toBe(200);
      expect((await api('/traffic')).body.flows).toEqual([]);
      await eventually(async () => expect(await summary()).toBeLessThan(0.1e9));
    });

    it('a link taken down is reported down (linkUp false) in both directions, and up again when repaired', async () => {
      const before = new Date(Date.now() - 1000).toISOString();
      expect((await post('/faults', { type: 'link-down', link: 'edge2/3--core1/2' })).status).toBe(200);
      await eventually(async () => {
        expect((await link('edge2/3->core1/2')).linkUp).toBe(false);
        expect((await link('core1/2->edge2/3')).linkUp).toBe(false);
        expect((await link('edge1/4->core2/1')).linkUp).toBe(true);
      });
      expect((await api('/faults', { method: 'DELETE' })).status).toBe(200);
      await eventually(async () => expect((await link('edge2/3->core1/2')).linkUp).toBe(true));
      // The store saw it go down and up (with Prometheus: from the link-state series): one event
      // per change, named by the link, each explained by the fault asked through the API.
      await eventually(async () => {
        const { body } = await api(`/events?from=${encodeURIComponent(before)}`);
        const seen = (body.events as { kind: string; subject: string; detail: string }[])
          .filter((e) => e.kind === 'link-state' && e.subject === 'edge2/3--core1/2')
          .map((e) => e.detail);
        expect(seen).toEqual([
          'link down (link-down through fabscope)',
          'link up (repair everything through fabscope)',
        ]);
      });
    });
  });
}
