import { createServer, type IncomingMessage, type Server } from 'node:http';
import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/free-port.ts';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

/** A TSDB's HTTP API passed through, every path asked noted: what the API asked of Prometheus. */
async function countingProxy(
  upstreamPort: number,
): Promise<{ url: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const body = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (request, response) => {
    asked.push(request.url ?? '');
    try {
      const upstream = await fetch(`http://127.0.0.1:${upstreamPort}${request.url}`, {
        method: request.method,
        headers: { 'content-type': request.headers['content-type'] ?? 'text/plain' },
        ...(request.method === 'POST' ? { body: await body(request) } : {}),
      });
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      response.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, asked, server };
}

/**
 * FABSCOPE_LIVE_SOURCE=collectors on seed 002 (two pairs under static routing: edge1→core2 full)
 * with a real Prometheus: the live view is read from the collectors, never from the TSDB, which
 * answers history; a TSDB out of reach leaves the live view as it was and history unavailable.
 */
describe('the live view from the collectors beside a TSDB', () => {
  let demo: RunningDemo;
  let tsdb: Awaited<ReturnType<typeof countingProxy>>;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
  const api = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${demo.apiUrl}/api/v1${path}`);
    return { status: response.status, body: await response.json() };
  };

  /** The utilization of seed 002's full ISL, edge1 → core2, in the live ranking. */
  const fullIsl = async (): Promise<number | undefined> => {
    const { body } = await api('/links?limit=10&sort=utilization');
    return body.links.find((l: { id: string }) => l.id === 'edge1/4->core2/1')?.utilization;
  };

  beforeAll(async () => {
    const prometheusPort = await freePort();
    tsdb = await countingProxy(prometheusPort);
    const config = { ...configFromEnv({ FABSCOPE_LIVE_SOURCE: 'collectors' }), host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: true, prometheusPort, readPromqlFrom: tsdb.url });
    await startSeedPairs(demo.apiUrl);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
    tsdb?.server.closeAllConnections();
    tsdb?.server.close();
  });

  it('says where the live view comes from, and draws it without asking the TSDB', async () => {
    await eventually(async () => {
      expect(await fullIsl()).toBeGreaterThan(0.95);
    }, 30_000);
    const { body: health } = await api('/health');
    expect(health).toMatchObject({ status: 'ok', store: 'prometheus', liveSource: 'collectors' });
    const ticks = demo.api.sampler.tickCount;
    tsdb.asked.length = 0;
    await eventually(
      async () => expect(demo.api.sampler.tickCount).toBeGreaterThanOrEqual(ticks + 3),
      10_000,
    );
    const { body: summary } = await api('/summary');
    expect(summary.hostTransmitBytesPerSecond).toBeGreaterThan(10e9);
    // Three live ticks, and no query of the TSDB: neither the tick's reads nor a watch for sweeps.
    expect(tsdb.asked.filter((path) => path.startsWith('/api/v1/query'))).toEqual([]);
  }, 60_000);

  it('answers history from the TSDB, from the collectors’ rates at the edge', async () => {
    tsdb.asked.length = 0;
    const from = new Date(Date.now() - 60_000).toISOString();
    await eventually(async () => {
      const { status, body } = await api(
        `/links/history?id=${encodeURIComponent('edge1/4->core2/1')}&from=${encodeURIComponent(from)}`,
      );
      expect(status).toBe(200);
      const known = body.series[0].points.filter(
        (p: { utilization: number | null }) => p.utilization !== null,
      );
      expect(known.length).toBeGreaterThan(2);
      expect(known.at(-1).utilization).toBeGreaterThan(0.95);
    }, 30_000);
    expect(tsdb.asked.some((path) => path.startsWith('/api/v1/query_range'))).toBe(true);
  }, 40_000);

  it('reads the fabric once a sweep for both scrapers, not once for each', async () => {
    // The collector's sweep interval (time since the read before) of every sweep Prometheus
    // scraped: a read made for the API's scrape in between would make them ~half the interval
    // (1 s here). The demo shares a read between them for half an interval; the median, not the
    // least, so one scrape that a loaded machine delayed past the shared half does not decide.
    const url = new URL('/api/v1/query', demo.prometheusUrl as string);
    url.searchParams.set('query', 'quantile_over_time(0.5, fabscope_fabric_sweep_interval_seconds[20s])');
    await eventually(async () => {
      const answer = (await (await fetch(url)).json()) as { data: { result: { value: [number, string] }[] } };
      expect(answer.data.result).toHaveLength(1);
      expect(Number(answer.data.result[0]?.value[1])).toBeGreaterThan(0.8);
    }, 30_000);
  }, 40_000);

  it('keeps the live view when the TSDB is out of reach, and says history is unavailable', async () => {
    tsdb.server.closeAllConnections();
    await new Promise((resolve) => tsdb.server.close(resolve));
    const ticks = demo.api.sampler.tickCount;
    await eventually(
      async () => expect(demo.api.sampler.tickCount).toBeGreaterThanOrEqual(ticks + 3),
      10_000,
    );
    const { body: health } = await api('/health');
    expect(health.status).toBe('ok');
    expect(await fullIsl()).toBeGreaterThan(0.95);
    const from = new Date(Date.now() - 60_000).toISOString();
    const history = await api(
      `/links/history?id=${encodeURIComponent('edge1/4->core2/1')}&from=${encodeURIComponent(from)}`,
    );
    expect(history.status).toBeGreaterThanOrEqual(500);
    expect(history.body.message).toMatch(/Prometheus/);
  }, 40_000);
});
