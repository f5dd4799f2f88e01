import { type PortSample, portExpositionChunks } from '@fabscope/collectors';
import { buildScenario, type Fabric } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';

const START_MS = Date.UTC(2026, 10, 22, 10, 0, 0);
const BUSY = 'edge1/4->core2/1';
const DOWN_LINK = 'edge1/3--core1/1';
const RESET_PORT = { node: 'nodeA', port: 1 };

/**
 * The fabric collector's page for ar-demo after `seconds`: BUSY carries half its capacity from
 * the start; DOWN_LINK is down from 10 s; nodeA's counters restart from 0 at 15 s (a reboot).
 */
function page(fabric: Fabric, index: LinkIndex, seconds: number): string {
  const ports = new Map<string, PortSample>();
  const port = (node: string, number: number, remote: { node: string; port: number }) => {
    const key = `${node}/${number}`;
    let p = ports.get(key);
    if (!p) {
      const n = fabric.nodeByName.get(node);
      const r = fabric.nodeByName.get(remote.node);
      if (!n || !r) throw new Error(`no node ${node} or ${remote.node}`);
      p = {
        nodeGuid: n.guid,
        nodeName: node,
        nodeType: n.type as PortSample['nodeType'],
        portNumber: number,
        lid: n.lid,
        rateBytesPerSecond: 12.5e9,
        linkUp: true,
        remote: { nodeGuid: r.guid, nodeName: remote.node, portNumber: remote.port },
        transmitBytes: 1e12,
        receiveBytes: 1e12,
        transmitPackets: 0,
        receivePackets: 0,
        transmitWaitTicks: 0,
      };
      ports.set(key, p);
    }
    return p;
  };
  for (const { fixed } of index.channels) {
    const from = port(fixed.from.node, fixed.from.port, fixed.to);
    const to = port(fixed.to.node, fixed.to.port, fixed.from);
    if (fixed.linkId === DOWN_LINK && seconds >= 10) {
      from.linkUp = false;
      to.linkUp = false;
    }
    if (fixed.id === BUSY) {
      from.transmitBytes += (fixed.capacityBytesPerSecond / 2) * seconds;
      to.receiveBytes += (fixed.capacityBytesPerSecond / 2) * seconds;
      // A quarter of each second waiting for credit, in 1 µs ticks; other ports name no tick length.
      from.transmitWaitTickSeconds = 1e-6;
      from.transmitWaitTicks += 0.25e6 * seconds;
    }
  }
  const reset = ports.get(`${RESET_PORT.node}/${RESET_PORT.port}`);
  if (reset && seconds >= 15) {
    reset.transmitBytes = 0;
    reset.receiveBytes = 0;
  }
  const snapshot = { fabric: 'ar-demo', fabricType: 'omnipath', ports: [...ports.values()] };
  return Buffer.concat([...portExpositionChunks(snapshot)]).toString('utf8');
}

const iso = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();

describe('time travel on the embedded store, on a virtual clock', () => {
  let app: FastifyInstance;
  const clock = { now: START_MS };
  const events = new MemoryEventLog();

  beforeAll(async () => {
    const fabric = buildScenario('ar-demo');
    const linkIndex = new LinkIndex(fabric);
    const store = new EmbeddedStore({
      targets: ['http://collector:9464/metrics'],
      scrapeIntervalMs: 1000,
      now: () => clock.now,
      fetch: (async () =>
        new Response(page(fabric, linkIndex, (clock.now - START_MS) / 1000))) as unknown as typeof fetch,
      events,
    });
    app = await buildTestApp({ fabric, linkIndex, store, events });
    const history = store.timeQueries(linkIndex);
    for (let s = 0; s <= 30; s++) {
      clock.now = START_MS + s * 1000;
      await store.scrapeOnce();
      await history.settled();
    }
  });
  afterAll(() => app?.close());

  const get = async (url: string) => {
    const res = await app.inject(url);
    return { status: res.statusCode, body: res.json() };
  };

  it('links?time=T answers that instant: the busy ISL at half, ranked first', async () => {
    const { status, body } = await get(`/api/v1/links?time=${iso(8)}&limit=2`);
    expect(status).toBe(200);
    expect(body.time).toBe(iso(8));
    expect(body.links[0].id).toBe(BUSY);
    expect(body.links[0].utilization).toBeCloseTo(0.5, 3);
    expect(body.links[0].linkUp).toBe(true);
  });

  it('before the first sample, everything is unknown: null and stale, never 0', async () => {
    const { body } = await get(`/api/v1/links?time=${iso(-60)}`);
    for (const l of body.links)
      expect(l).toMatchObject({ utilization: null, bytesPerSecond: null, stale: true });
    const summary = await get(`/api/v1/summary?time=${iso(-60)}`);
    expect(summary.body.hostTransmitBytesPerSecond).toBeNull();
  });

  it('summary/history: a point per step, null before the data, the link down after 10 s', async () => {
    const { status, body } = await get(`/api/v1/summary/history?from=${iso(-5)}&to=${iso(30)}&step=5s`);
    expect(status).toBe(200);
    expect(body.points.map((p: { time: string }) => p.time)).toEqual([-5, 0, 5, 10, 15, 20, 25, 30].map(iso));
    expect(body.points[0]).toMatchObject({ hostTransmitBytesPerSecond: null, histogram: null });
    // The busy ISL at 50 % counts in bucket 5 once its rate is known.
    expect(body.points[3].histogram.isl[5]).toBe(1);
  });

  it('history/kept: how far back the store keeps and the oldest instant held, in memory here', async () => {
    const { status, body } = await get('/api/v1/history/kept');
    expect(status).toBe(200);
    // The default hour at one frame a second; the first scrape at 0 s is the oldest held.
    expect(body).toEqual({ store: 'embedded', seconds: 3600, oldest: iso(0), onDisk: false });
  });

  it('links/history: one series per id in the order asked', async () => {
    const url = `/api/v1/links/history?id=${encodeURIComponent(BUSY)}&id=${encodeURIComponent('edge1/3->core1/1')}&from=${iso(5)}&to=${iso(9)}&step=1`;
    const { status, body } = await get(url);
    expect(status).toBe(200);
    expect(body.series.map((s: { id: string }) => s.id)).toEqual([BUSY, 'edge1/3->core1/1']);
    for (const p of body.series[0].points) expect(p.utilization).toBeCloseTo(0.5, 3);
    for (const p of body.series[1].points) expect(p.utilization).toBe(0);
  });

  it('links/history: the XmitWait series beside utilization, null where unknown, never 0', async () => {
    const url = `/api/v1/links/history?id=${encodeURIComponent(BUSY)}&id=${encodeURIComponent('edge1/3->core1/1')}&from=${iso(-3)}&to=${iso(9)}&step=1`;
    const { status, body } = await get(url);
    expect(status).toBe(200);
    type Point = { time: string; utilization: number | null; transmitWaitFraction: number | null };
    const [busy, idle] = body.series as { points: Point[] }[];
    const before = busy?.points.filter((p) => p.time < iso(0)) ?? [];
    expect(before.length).toBeGreaterThan(0);
    for (const p of before) expect(p).toMatchObject({ utilization: null, transmitWaitFraction: null });
    const known = busy?.points.filter((p) => p.time >= iso(2)) ?? [];
    expect(known.length).toBeGreaterThan(0);
    for (const p of known) expect(p.transmitWaitFraction).toBeCloseTo(0.25, 2);
    // Measured idle, but its port names no XmitWait tick length: its wait is unknown.
    for (const p of idle?.points.filter((q) => q.time >= iso(2)) ?? []) {
      expect(p.utilization).toBe(0);
      expect(p.transmitWaitFraction).toBeNull();
    }
  });

  it('events: the link seen going down, and the counters of the rebooted port going backwards', async () => {
    const { status, body } = await get(`/api/v1/events?from=${iso(0)}&to=${iso(30)}`);
    expect(status).toBe(200);
    expect(body.events).toEqual([
      {
        time: iso(10),
        kind: 'link-state',
        subject: DOWN_LINK,
        detail: 'link down (not caused through fabscope)',
        severity: 'error',
      },
      {
        time: iso(15),
        kind: 'counter-reset',
        subject: 'nodeA/1',
        // Not asked through fabscope: an unexpected clear, as opafm's PM calls it.
        detail: expect.stringMatching(/^unexpected clear: counters went backwards without fabscope/),
        severity: 'warning',
      },
    ]);
  });

  it('answers bad times, steps and ranges with 400 and the reason', async () => {
    const cases: [string, RegExp][] = [
      ['/api/v1/links?time=yesterday', /time "yesterday" is neither Unix seconds/],
      ['/api/v1/summary?time=2026-02-30T00:00:00Z', /time "2026-02-30T00:00:00Z" is neither Unix seconds/],
      [`/api/v1/summary/history?from=${iso(10)}&to=${iso(0)}`, /to is before from/],
      [
        `/api/v1/summary/history?from=${iso(0)}&to=${iso(30)}&step=0s`,
        /step "0s" is neither seconds of at least 0.001/,
      ],
      [`/api/v1/summary/history?from=0&to=${iso(30)}&step=1s`, /exceed the limit of 11000/],
      [`/api/v1/summary/history?to=${iso(30)}`, /from/],
      [`/api/v1/events?from=${iso(0)}&to=soon`, /to "soon"/],
    ];
    for (const [url, reason] of cases) {
      const { status, body } = await get(url);
      expect(status, url).toBe(400);
      expect(body.message, url).toMatch(reason);
    }
    // A direction the fabric does not have: nothing to answer about (404).
    const unknown = await get(`/api/v1/links/history?id=nope&from=${iso(0)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/unknown link direction "nope"/);
  });
});

describe('a store without history', () => {
  it("answers time questions 409 with the reason, and today's questions as before", async () => {
    const fabric = buildScenario('ar-demo');
    const linkIndex = new LinkIndex(fabric);
    const store: MetricsStore = {
      kind: 'prometheus',
      rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
      close: async () => {},
    };
    const app = await buildTestApp({ fabric, linkIndex, store });
    const res = await app.inject('/api/v1/summary?time=1700000000');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/keeps no history/);
    expect((await app.inject('/api/v1/summary')).statusCode).toBe(200);
    await app.close();
  });
});
