import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmulatorClient } from '../src/emulator-client.ts';
import { buildTestApp } from './helper.ts';

// A paged list polled while it does not change (the dashboard's `/traffic?limit=5000` every tick)
// must be the same answer every time: the `next` cursor names the list's content, not the read, so
// the ETag holds and a conditional GET is a 304 (fat-tree-27648: ~1.8 MB not read again a tick).
describe('paged lists: an unchanged list is the same answer (ETag, 304); paging stays exact', () => {
  const fabric = buildScenario('ar-demo');
  const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() });
  let server: EmulatorServer;
  let app: FastifyInstance;

  beforeAll(async () => {
    server = await startEmulatorServer(emulator, { tickMs: 20, fromDateNow: true });
    app = await buildTestApp({ fabric, emulator: new EmulatorClient(server.url) });
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });
  beforeEach(async () => {
    await call('DELETE', '/traffic');
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
  const get = (url: string, etag?: string) =>
    app.inject({ url: `/api/v1${url}`, headers: etag === undefined ? {} : { 'if-none-match': etag } });

  type FlowsPage = { flows: { id: string }[]; total: number; next?: string };

  /** Every page of `/traffic?<query>`, walked with `next`. */
  async function walk(query: string, between?: () => Promise<unknown>): Promise<string[]> {
    const ids: string[] = [];
    let url: string | null = `/traffic?${query}`;
    while (url !== null) {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as FlowsPage;
      ids.push(...page.flows.map((f) => f.id));
      if (between) await between();
      url = page.next === undefined ? null : `/traffic?${query}&cursor=${encodeURIComponent(page.next)}`;
    }
    return ids;
  }

  it('two reads of unchanged traffic: the same body and ETag, and 304 to If-None-Match; a change: a new ETag', async () => {
    await call('POST', '/traffic', { pattern: 'all-to-all', job: 'a2a' });
    const first = await get('/traffic?limit=5');
    expect(first.statusCode).toBe(200);
    expect(first.json().next).toEqual(expect.any(String));
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    // A tick later (the dashboard's poll), the flows are as they were: the emulator's clock and the
    // wall clock moved on 1.1 s. (Listings used to be shared for 1 s only: a new ETag every poll.)
    emulator.advance(1100);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1100);
    let second: Awaited<ReturnType<typeof get>>;
    try {
      second = await get('/traffic?limit=5');
    } finally {
      vi.useRealTimers();
    }
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(etag);
    const conditional = await get('/traffic?limit=5', etag);
    expect(conditional.statusCode).toBe(304);
    expect(conditional.rawPayload.length).toBe(0);

    await call('POST', '/traffic', { pattern: 'pairs', pairs: [['nodeA', 'nodeC']], job: 'more' });
    const changed = await get('/traffic?limit=5', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().total).toBe(13);
    expect(changed.json().next).not.toBe(first.json().next);
    // The first list's cursor still reads on from its own flows.
    const rest = await get(`/traffic?cursor=${encodeURIComponent(first.json().next)}&limit=100`);
    expect(rest.json().flows).toHaveLength(7);
  });

  it('a later page of an unchanged list is the same answer too; an expired cursor is 410', async () => {
    await call('POST', '/traffic', { pattern: 'iperf', from: 'nodeA', to: 'nodeC', streams: 9, job: 'ip' });
    const next = (await get('/traffic?limit=4')).json().next as string;
    const a = await get(`/traffic?cursor=${encodeURIComponent(next)}&limit=4`);
    const b = await get(`/traffic?cursor=${encodeURIComponent(next)}&limit=4`, String(a.headers.etag));
    expect(b.statusCode).toBe(304);
    // The emulator holds its 8 most recently read listings: nine other versions push this one out.
    for (let i = 0; i < 9; i++) {
      await call('POST', '/traffic', { pattern: 'pairs', pairs: [['nodeB', 'nodeD']], job: `j${i}` });
      await get('/traffic?limit=1');
    }
    const gone = await get(`/traffic?cursor=${encodeURIComponent(next)}&limit=4`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toMatch(/no longer held/);
  });

  it('fast-check: whatever the traffic, limit and changes between pages, a walk gives each flow of its first page’s instant once', async () => {
    const request = fc.oneof(
      fc.record({ pattern: fc.constant('all-to-all') }),
      fc.record({ pattern: fc.constant('shift'), k: fc.integer({ min: 1, max: 3 }) }),
      fc.record({
        pattern: fc.constant('iperf'),
        from: fc.constant('nodeA'),
        to: fc.constantFrom('nodeB', 'nodeC', 'nodeD'),
        streams: fc.integer({ min: 1, max: 12 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        async (requests, limit, changeBetween) => {
          await call('DELETE', '/traffic');
          for (const r of requests) expect((await call('POST', '/traffic', r)).statusCode).toBe(200);
          const whole = (await (await fetch(`${server.url}/v1/flows`)).json()) as { flows: { id: string }[] };
          const expected = whole.flows.map((f) => f.id);
          // Two first pages of the unchanged flows: one answer.
          const a = await get(`/traffic?limit=${limit}`);
          const b = await get(`/traffic?limit=${limit}`, String(a.headers.etag));
          expect(b.statusCode).toBe(304);
          let started = 0;
          const ids = await walk(`limit=${limit}`, async () => {
            if (!changeBetween || started++ > 1) return;
            await call('POST', '/traffic', { pattern: 'pairs', pairs: [['nodeD', 'nodeA']] });
          });
          expect(ids).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('/jobs and /links/flows: an unchanged list is one answer (304), a change a new one', async () => {
    await call('POST', '/traffic', { pattern: 'iperf', from: 'nodeA', to: 'nodeC', streams: 6, job: 'ip' });
    await call('POST', '/traffic', { pattern: 'pairs', pairs: [['nodeB', 'nodeD']], job: 'seed' });
    const jobs = await get('/jobs?limit=1');
    expect(jobs.statusCode, jobs.body).toBe(200);
    expect(jobs.json().next).toEqual(expect.any(String));
    expect((await get('/jobs?limit=1', String(jobs.headers.etag))).statusCode).toBe(304);

    const link = (await get('/traffic?job=ip&limit=1')).json().flows[0].path[1] as string;
    const flows = await get(`/links/flows?id=${encodeURIComponent(link)}&limit=2`);
    expect(flows.statusCode, flows.body).toBe(200);
    expect(flows.json().next).toEqual(expect.any(String));
    const again = await get(
      `/links/flows?id=${encodeURIComponent(link)}&limit=2`,
      String(flows.headers.etag),
    );
    expect(again.statusCode).toBe(304);
    // Walking it still gives every flow once.
    const ids = (flows.json().flows as { id: string }[]).map((f) => f.id);
    let next: string | undefined = flows.json().next;
    while (next !== undefined) {
      const page = (
        await get(`/links/flows?id=${encodeURIComponent(link)}&cursor=${encodeURIComponent(next)}`)
      ).json();
      ids.push(...page.flows.map((f: { id: string }) => f.id));
      next = page.next;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(flows.json().total);

    await call('POST', '/traffic', { pattern: 'pairs', pairs: [['nodeD', 'nodeB']], job: 'third' });
    const changed = await get('/jobs?limit=1', String(jobs.headers.etag));
    expect(changed.statusCode).toBe(200);
    expect(changed.json().total).toBe(3);
  });
});
