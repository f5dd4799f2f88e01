import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { configFromEnv, startApi } from '@fabscope/api';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { buildScenario, parseTopology } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type PrometheusServer, startPrometheus } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

// `fabscope serve` on a live (ibsim + OpenSM) subnet beside a real Prometheus that scrapes its
// collector, with the live view read from that collector (FABSCOPE_LIVE_SOURCE=collectors):
// the live figures from the subnet's MADs, the history from Prometheus.
// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
type Json = any;

describe('FABSCOPE_FABRIC=infiniband fabscope serve beside Prometheus, the live view from its collector', () => {
  let lab: Lab;
  let prometheus: PrometheusServer;
  let serve: ServeOnLab;
  let url = '';
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${url}/api/v1${path}`);
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(buildScenario('ar-demo')),
      routing: 'minhop',
      sockName: `serve-tsdb-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    const collectorPort = await freePort();
    prometheus = await startPrometheus({ targets: [`127.0.0.1:${collectorPort}`] });
    serve = await startServeOnLab(
      lab,
      {
        FABSCOPE_COLLECTOR_PORT: String(collectorPort),
        PROMETHEUS_URL: prometheus.url,
        FABSCOPE_LIVE_SOURCE: 'collectors',
      },
      60_000,
    );
    url = serve.url;
  }, 120_000);
  afterAll(async () => {
    await serve?.stop();
    await prometheus?.stop();
    await lab?.stop();
  });

  it('reads the live view from its collector and says so; answers history from Prometheus', async () => {
    const { body: health } = await get('/health');
    expect(health).toMatchObject({ status: 'ok', store: 'prometheus', liveSource: 'collectors' });
    // Every cabled direction of the subnet known live (idle: 0, not unknown).
    let links: { links: { id: string; utilization: number | null }[] } = { links: [] };
    await eventually(async () => {
      links = (await get('/links?limit=100')).body;
      expect(links.links.length).toBeGreaterThan(0);
      expect(links.links.filter((l) => l.utilization === null)).toEqual([]);
    }, 30_000);
    // History: Prometheus' samples of the collector's rates at the edge for one of them.
    const id = links.links[0]?.id as string;
    const from = new Date(Date.now() - 60_000).toISOString();
    await eventually(async () => {
      const { status, body } = await get(
        `/links/history?id=${encodeURIComponent(id)}&from=${encodeURIComponent(from)}`,
      );
      expect(status).toBe(200);
      expect(
        body.series[0].points.filter((p: { utilization: number | null }) => p.utilization !== null).length,
      ).toBeGreaterThan(1);
    }, 30_000);
  }, 60_000);

  it("answers a port's page from Prometheus as from the collector: totals, physical state, error rates", async () => {
    // The API over Prometheus alone (its live view, totals and states from PromQL), beside the served one, drawing
    // the subnet as discovered (ibsim gives the GUIDs).
    const discovered = await promisify(execFile)('ibnetdiscover', ['-p'], {
      env: { ...process.env, ...lab.env },
      cwd: lab.cwd,
    });
    const overTsdb = await startApi(
      { ...configFromEnv({ PROMETHEUS_URL: prometheus.url }), host: '127.0.0.1', port: 0 },
      parseTopology(discovered.stdout),
    );
    try {
      const page = async (base: string): Promise<Json> =>
        (await fetch(`${base}/api/v1/port?node=edge1`)).json();
      // Each scrapes the collector, which reads at scrape time: the same counters a read or two apart.
      await eventually(async () => {
        const [served, tsdb] = await Promise.all([page(url), page(overTsdb.url)]);
        expect(tsdb.ports).toHaveLength(served.ports.length);
        served.ports.forEach((port: Json, i: number) => {
          const other = tsdb.ports[i];
          expect([port.physicalState, other.physicalState], other.physicalStateUnknown).toEqual([
            'LinkUp',
            'LinkUp',
          ]);
          expect(other.totals, other.totalsUnknown).not.toBeNull();
          const [older, newer] =
            Date.parse(other.totals.time) <= Date.parse(port.totals.time) ? [other, port] : [port, other];
          expect(Date.parse(newer.totals.time) - Date.parse(older.totals.time)).toBeLessThanOrEqual(2000);
          for (const [field, value] of Object.entries(
            port.totals.counters as Record<string, number | null>,
          )) {
            const was = older.totals.counters[field];
            const is = newer.totals.counters[field];
            expect(other.totals.counters[field] === null, field).toBe(value === null);
            // Counters only count up: the later reading is never below the earlier.
            if (was !== null) expect(is, field).toBeGreaterThanOrEqual(was);
          }
          // The error rates: the same fields known, idle on the idle lab.
          expect(other.out?.errors, 'errors/s').toEqual(port.out?.errors);
        });
        expect(served.ports[0].totals.counters.transmitPackets).toBeGreaterThan(0);
      }, 20_000);
      // A port Prometheus holds no fresh sample of: unknown, never a total made up.
      const guid = (await page(url)).node.guid;
      expect(await overTsdb.store.portTotals?.([`${guid}/77`])).toEqual([null]);
    } finally {
      await overTsdb.close();
    }
  }, 40_000);
});
