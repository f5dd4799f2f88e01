import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type PrometheusServer, startPrometheus } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

// `fabscope serve` on a live (ibsim + OpenSM) subnet beside a real Prometheus that scrapes its
// collector, with the live view read from that collector (FABSCOPE_LIVE_SOURCE=collectors):
// the live figures from the subnet's MADs, the history from Prometheus.
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
});
