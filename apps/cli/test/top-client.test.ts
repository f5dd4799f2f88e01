import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEvents, parseHistory } from '../src/top/answers.ts';
import { TopClient } from '../src/top/client.ts';
import { ServerUnreachableError, TopClientError } from '../src/top/errors.ts';
import { rankByUtilization, sortByPackets } from '../src/top/rank.ts';
import { initialViewState } from '../src/top/state.ts';
import { arDemoSnapshot, link } from './top-fixtures.ts';

describe('fabscope top client', () => {
  it('ranks packets highest first, unknown last', () => {
    const links = [
      link('a/1', 'b/1', { packetsPerSecond: 5 }),
      link('c/1', 'd/1', { packetsPerSecond: null }),
      link('e/1', 'f/1', { packetsPerSecond: 9 }),
    ];
    expect(sortByPackets(links).map((l) => l.id)).toEqual(['e/1->f/1', 'a/1->b/1', 'c/1->d/1']);
  });

  it('ranks utilization ties at the shown precision by wait: the congested link first', () => {
    const links = [
      link('core2/2', 'edge2/4', { utilization: 0.98895, transmitWaitFraction: 0 }),
      link('edge1/4', 'core2/1', { utilization: 0.98893, transmitWaitFraction: 0.5 }),
      link('x/1', 'y/1', { utilization: null }),
      link('a/1', 'b/1', { utilization: 0.2 }),
    ];
    expect(rankByUtilization(links, 'desc').map((l) => l.id)).toEqual([
      'edge1/4->core2/1',
      'core2/2->edge2/4',
      'a/1->b/1',
      'x/1->y/1',
    ]);
    expect(rankByUtilization(links, 'asc').map((l) => l.id)[0]).toBe('a/1->b/1');
    expect(rankByUtilization(links, 'asc').at(-1)?.id).toBe('x/1->y/1');
  });

  it('ranks ties in natural order, as the dashboard does: core1/2 before core1/10', () => {
    const tied = ['core1/10', 'core1/2', 'core1/1', 'core10/1', 'core2/1'].map((from) =>
      link(from, 'x/1', { utilization: 0.5, transmitWaitFraction: 0, packetsPerSecond: 7 }),
    );
    const natural = ['core1/1->x/1', 'core1/2->x/1', 'core1/10->x/1', 'core2/1->x/1', 'core10/1->x/1'];
    expect(rankByUtilization(tied, 'desc').map((l) => l.id)).toEqual(natural);
    expect(sortByPackets(tied).map((l) => l.id)).toEqual(natural);
  });

  it('reads the history points, skipping entries without a time', () => {
    const points = [
      { time: '2026-11-22T22:31:10Z', hostTransmitBytesPerSecond: 1e9, histogram: null },
      { time: '2026-11-22T22:31:11Z', hostTransmitBytesPerSecond: null, histogram: null },
      { nope: 1 },
    ];
    expect(parseHistory({ points })).toEqual([
      { time: '2026-11-22T22:31:10Z', hostTransmitBytesPerSecond: 1e9 },
      { time: '2026-11-22T22:31:11Z', hostTransmitBytesPerSecond: null },
    ]);
    expect(() => parseHistory({ nothing: true })).toThrow(TopClientError);
    expect(() => parseHistory([])).toThrow(TopClientError);
  });

  it('reads events as one line each, link ids written as everywhere else: → and ↔, never ->', () => {
    expect(
      parseEvents({
        events: [
          {
            time: '2026-11-22T22:30:00Z',
            kind: 'link-state',
            subject: 'edge1/4--core2/1',
            detail: 'up → down',
          },
          { time: '2026-11-22T22:30:01Z', kind: 'counter-reset', subject: 'edge1/4' },
          {
            time: '2026-11-22T22:30:01Z',
            kind: 'threshold',
            subject: 'edge1/4->core2/1',
            detail: 'Congestion',
          },
          { time: '2026-11-22T22:30:01Z', kind: 'alarm', subject: 'fabric', detail: 'alarm raised: 2 ISL' },
          { time: '2026-11-22T22:30:02Z' },
          { kind: 'fault' },
        ],
      }),
    ).toEqual([
      { time: '2026-11-22T22:30:00Z', text: 'link-state edge1/4 ↔ core2/1: up → down' },
      { time: '2026-11-22T22:30:01Z', text: 'counter-reset edge1/4' },
      { time: '2026-11-22T22:30:01Z', text: 'threshold edge1/4 → core2/1: Congestion' },
      { time: '2026-11-22T22:30:01Z', text: 'alarm raised: 2 ISL' },
    ]);
    expect(() => parseEvents('garbage')).toThrow(TopClientError);
  });

  describe('over HTTP', () => {
    let server: Server | undefined;
    afterEach(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      server = undefined;
    });
    const serve = async (handler: Parameters<typeof createServer>[1]) => {
      server = createServer(handler);
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    it('finds the optional endpoints: 404 (older server) and 409 (no history kept) mean off', async () => {
      const asked: string[] = [];
      let historyStatus = 409;
      const url = await serve((request, response) => {
        asked.push(request.url ?? '');
        const path = (request.url ?? '').split('?')[0];
        response.setHeader('content-type', 'application/json');
        if (path === '/api/v1/summary/history' && historyStatus !== 200) {
          response.statusCode = historyStatus;
          response.end(
            JSON.stringify({
              statusCode: historyStatus,
              error: 'x',
              message: 'the prometheus store keeps no history',
            }),
          );
        } else if (path === '/api/v1/summary/history') response.end(JSON.stringify({ points: [] }));
        else if (path === '/api/v1/events') response.end(JSON.stringify({ events: [] }));
        else response.writeHead(404).end('{}');
      });
      const client = new TopClient({ url });
      const now = Date.parse('2026-11-22T22:31:10Z');
      expect(await client.features(now)).toEqual({ history: false, events: true });
      // Both are range questions: they need a start.
      expect(asked).toContain('/api/v1/summary/history?from=2026-11-22T22%3A31%3A00.000Z');
      expect(asked).toContain('/api/v1/events?from=2026-11-22T22%3A31%3A00.000Z');
      historyStatus = 404;
      expect(await client.features(now)).toEqual({ history: false, events: true });
      historyStatus = 200;
      expect(await client.features(now)).toEqual({ history: true, events: true });
    });

    it('ranks by packets on the server when it can, else asks once for every direction and ranks here', async () => {
      const links = [
        link('a/1', 'b/1', { packetsPerSecond: 5 }),
        link('c/1', 'd/1', { packetsPerSecond: 9 }),
        link('e/1', 'f/1', { packetsPerSecond: 1 }),
      ];
      const asked: string[] = [];
      let ranksPackets = false;
      const url = await serve((request, response) => {
        const requestUrl = new URL(request.url ?? '', 'http://x');
        if (requestUrl.pathname === '/api/v1/links') asked.push(requestUrl.search);
        response.setHeader('content-type', 'application/json');
        const answer = (body: unknown, status = 200) => {
          response.statusCode = status;
          response.end(JSON.stringify(body));
        };
        if (requestUrl.pathname === '/api/v1/health')
          return answer({ status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.1 });
        if (requestUrl.pathname === '/api/v1/summary') return answer(arDemoSnapshot.summary);
        const sort = requestUrl.searchParams.get('sort');
        if (sort === 'packetsPerSecond' && !ranksPackets)
          return answer({ statusCode: 400, error: 'Bad Request', message: 'querystring/sort' }, 400);
        const ranked = sort
          ? [...links].sort((x, y) => (y.packetsPerSecond ?? 0) - (x.packetsPerSecond ?? 0))
          : links;
        return answer({
          time: 'x',
          links: ranked.slice(0, Number(requestUrl.searchParams.get('limit') ?? 100)),
        });
      });
      const state = { ...initialViewState, sort: 'packets' as const };
      const features = { history: false, events: false };

      const older = new TopClient({ url });
      const first = await older.snapshot(state, 2, features);
      expect(first.links.map((l) => l.packetsPerSecond)).toEqual([9, 5]);
      expect(first.moreLinks).toBe(true);
      await older.snapshot(state, 2, features);
      const packetQueries = asked.filter((q) => !q.includes('transmitWaitFraction'));
      // Refused once, then every direction unranked, and not asked to rank again.
      expect(packetQueries).toEqual(['?sort=packetsPerSecond&order=desc&limit=3', '', '']);

      ranksPackets = true;
      asked.length = 0;
      const newer = new TopClient({ url });
      expect((await newer.snapshot(state, 2, features)).links.map((l) => l.packetsPerSecond)).toEqual([9, 5]);
      expect(asked.filter((q) => !q.includes('transmitWaitFraction'))).toEqual([
        '?sort=packetsPerSecond&order=desc&limit=3',
      ]);
    });

    it('a server that never answers: unreachable after the timeout', async () => {
      const url = await serve(() => undefined);
      const client = new TopClient({ url, timeoutMs: 200 });
      const error = await client.features().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerUnreachableError);
      expect((error as Error).message).toMatch(/no answer within 0.2 s/);
    });

    it('something that is not a fabscope server: a clear error', async () => {
      const url = await serve((_request, response) => {
        response.setHeader('content-type', 'text/html');
        response.end('<html>hello</html>');
      });
      const client = new TopClient({ url });
      const error = await client
        .snapshot(initialViewState, 10, { history: false, events: false })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TopClientError);
      expect((error as Error).message).toMatch(/not JSON \(is this a fabscope server\?\)/);
    });

    it('sends the token and reports HTTP errors with the API message', async () => {
      const seen: (string | undefined)[] = [];
      const url = await serve((request, response) => {
        seen.push(request.headers.authorization);
        response.statusCode = 403;
        response.end(JSON.stringify({ statusCode: 403, error: 'Forbidden', message: 'token required' }));
      });
      const client = new TopClient({ url, token: 's3cret' });
      await expect(client.fabric()).rejects.toThrow(/GET .*\/api\/v1\/topology: HTTP 403 token required/);
      expect(seen).toEqual(['Bearer s3cret']);
    });
  });
});
