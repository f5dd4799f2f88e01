import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import { buildTestApp } from './helper.ts';

// The API in process (inject) driving a real emulator over HTTP, as the demo wires them.
describe('API traffic patterns and faults, forwarded to the emulator', () => {
  const fabric = buildScenario('ar-demo');
  const tables = fatTreeRouting(fabric);
  let server: EmulatorServer;
  let app: FastifyInstance;

  beforeAll(async () => {
    server = await startEmulatorServer(createEmulator({ fabric, tables, startTimeMs: Date.now() }), {
      tickMs: 20,
      fromDateNow: true,
    });
    app = await buildTestApp({ fabric, tables, emulator: new EmulatorClient(server.url) });
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });

  it.each([
    [{ pattern: 'shift', k: 1 }, 4],
    [{ pattern: 'permutation', seed: 7 }, 4],
    [{ pattern: 'all-to-all' }, 12],
    [{ pattern: 'incast', to: 'nodeA' }, 3],
    [{ pattern: 'bisection' }, 4],
    [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', streams: 16, duration: '10s' }, 16],
    [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: '1MiB', jobs: 2 }, 6],
    [
      {
        items: [
          { pattern: 'pairs', pairs: [['nodeA', 'nodeC']], messageSize: 4096, demand: '50Gb/s', start: 1 },
        ],
      },
      1,
    ],
  ])('starts %j → %i flows', async (body, count) => {
    const res = await call('POST', '/traffic', body);
    expect(res.statusCode).toBe(200);
    expect(res.json().flows).toHaveLength(count);
    await call('DELETE', '/traffic');
  });

  it('passes the new flow fields through', async () => {
    const res = await call('POST', '/traffic', { pattern: 'iperf', from: 'nodeA', to: 'nodeC', streams: 2 });
    expect(res.json().flows[0]).toMatchObject({
      pattern: 'iperf',
      transport: 'ip',
      messageBytes: 131072,
      state: 'running',
    });
    await call('DELETE', '/traffic');
  });

  it.each([
    // A name the fabric does not have: 404.
    [{ pattern: 'incast', to: 'nodeZ' }, 404, /unknown node "nodeZ"/],
    [{ pattern: 'pairs', pairs: [['nodeZ', 'nodeZ']] }, 404, /unknown node "nodeZ"/],
    // The fields a pattern needs are in the schema (if/then): said with the pattern.
    [{ pattern: 'iperf', from: 'nodeA' }, 400, /^body: "iperf" needs to$/],
    [{ pattern: 'iperf', from: 'nodeA', to: 'nodeA' }, 400, /paired with itself/],
    [{ pattern: 'storage', server: 'edge1', op: 'read' }, 400, /is a switch/],
    [{ pattern: 'shift', k: 4 }, 400, /multiple of the 4 hosts/], // checked by the emulator, passed through
    [{ pattern: 'shift', k: 1, bogus: true }, 400, /unknown parameter "bogus"/],
  ])('refuses %j with a reason', async (body, status, reason) => {
    const res = await call('POST', '/traffic', body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(reason);
  });

  it('injects, lists and repairs faults', async () => {
    const down = await call('POST', '/faults', { type: 'link-down', link: 'edge1/4--core2/1' });
    expect(down.statusCode).toBe(200);
    expect(down.json().fault).toMatchObject({ type: 'link-down', target: 'edge1/4--core2/1' });
    await call('POST', '/faults', { type: 'symbol-errors', node: 'core1', port: 1, rate: 10 });
    await call('POST', '/faults', { type: 'flap', link: 'edge2/3--core1/2', period: '1s', downFor: 0.2 });
    const listed = (await call('GET', '/faults')).json().faults.map((f: { type: string }) => f.type);
    expect(listed.sort()).toEqual(['flap', 'link-down', 'symbol-errors']);
    expect((await call('POST', '/faults', { type: 'restart', node: 'nodeA' })).statusCode).toBe(200);
    expect((await call('DELETE', '/faults')).json()).toEqual({ faults: [] });
    expect((await call('GET', '/faults')).json()).toEqual({ faults: [] });
  });

  it.each([
    [{ type: 'link-down', link: 'a/1--b/1' }, 404, /unknown link/],
    [{ type: 'switch-down', node: 'nodeA' }, 400, /not a switch/],
    [{ type: 'link-down', node: 'nodeA', port: 9 }, 404, /not cabled/],
    [{ type: 'melt' }, 400, /type/],
    // What each type takes and needs is in the schema (FAULT_FIELDS), said in words.
    [{ type: 'flap' }, 400, /^body: "flap" needs link, or node and port \(not both\)$/],
    [
      { type: 'link-down', link: 'edge1/4--core2/1', node: 'nodeA', port: 1 },
      400,
      /"link-down" needs link, or node and port \(not both\)/,
    ],
    [{ type: 'restart' }, 400, /^body: "restart" needs node$/],
    [{ type: 'restart', node: 'nodeA', rate: 1 }, 400, /^body\/rate is not a field of this type$/],
    [{ type: 'link-quality', link: 'edge1/4--core2/1' }, 400, /^body: "link-quality" needs quality$/],
    [{ type: 'symbol-errors', link: 'edge1/4--core2/1', rate: -1 }, 400, /rate/],
  ])('refuses fault %j', async (body, status, reason) => {
    const res = await call('POST', '/faults', body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(reason);
  });

  it.each([
    [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: '1e400MiB' }, /ioSize.*finite/],
    [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: '2000GiB' }, /ioSize.*at most/],
    [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', duration: '1e9s' }, /duration.*at most/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], demand: '1e9Gb/s' }, /demand.*at most/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], messageSize: '1e300' }, /messageSize/],
    [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], start: '1e400' }, /start/],
  ])(
    'the emulator answers %j with 400 naming the field, and the next request still works',
    async (body, reason) => {
      const res = await call('POST', '/traffic', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Bad Request' });
      expect(res.json().message).toMatch(reason);
      const next = await call('POST', '/traffic', { pattern: 'shift', k: 1 });
      expect(next.statusCode).toBe(200);
      expect((await call('GET', '/traffic')).statusCode).toBe(200);
      expect((await call('DELETE', '/traffic')).statusCode).toBe(200);
    },
  );

  it("GET /traffic pages where the flows are: each flow once, of one listing, with the whole list's jobs", async () => {
    await call('POST', '/traffic', { pattern: 'all-to-all', job: 'a2a' });
    await call('POST', '/traffic', { pattern: 'iperf', from: 'nodeA', to: 'nodeC', streams: 3, job: 'ip' });
    const pages: {
      flows: { id: string }[];
      total: number;
      next?: string;
      jobs: { job: string; flows: number }[];
    }[] = [];
    let url: string | null = '/traffic?limit=5';
    while (url !== null) {
      const res = await call('GET', url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      pages.push(page);
      // Traffic starting between pages changes no page of the listing already read.
      if (pages.length === 1) await call('POST', '/traffic', { pattern: 'shift', k: 1, job: 'later' });
      url = page.next === undefined ? null : `/traffic?limit=5&cursor=${encodeURIComponent(page.next)}`;
    }
    const ids = pages.flatMap((p) => p.flows.map((f) => f.id));
    expect(pages.length).toBe(Math.ceil(15 / 5));
    expect(new Set(ids).size).toBe(15);
    expect(new Set(pages.map((p) => p.total))).toEqual(new Set([15]));
    for (const page of pages) {
      expect(page.jobs.map((j) => [j.job, j.flows]).sort()).toEqual([
        ['a2a', 12],
        ['ip', 3],
      ]);
    }
    // A new first page sees the flows started since; the job filter pages that job's flows only.
    expect((await call('GET', '/traffic')).json().total).toBe(19);
    const ip = (await call('GET', '/traffic?job=ip&limit=2')).json();
    expect(ip.total).toBe(3);
    const rest = await call('GET', `/traffic?job=ip&cursor=${encodeURIComponent(ip.next)}`);
    expect(rest.json().flows).toHaveLength(1);
    expect((await call('GET', `/traffic?job=a2a&cursor=${encodeURIComponent(ip.next)}`)).statusCode).toBe(
      400,
    );
    expect((await call('GET', '/traffic?cursor=nonsense')).statusCode).toBe(400);
    const gone = await call('GET', '/traffic?cursor=Lzzzzz.5');
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toMatch(/no longer held/);
    // Of a cursor's form, but of the API's own lists, not the emulator's: no listing held either.
    expect((await call('GET', '/traffic?cursor=abcdefghijklmnop.5')).statusCode).toBe(410);
    await call('DELETE', '/traffic');
  });
});
