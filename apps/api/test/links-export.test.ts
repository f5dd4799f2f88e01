import { connect, type Socket } from 'node:net';
import type { LinkDirectionState } from '@fabscope/contracts';
import { PAGE_MAX } from '@fabscope/contracts';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates } from '../src/lib/port-rates.ts';
import { EXPORT_ROWS_PER_CHUNK, ndjsonChunks } from '../src/routes/links/export.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';

// fat-tree-6912: 41,472 directions, ~45 MB of NDJSON per export.
const fabric = buildScenario('fat-tree-6912');
const index = new LinkIndex(fabric);
const ports = new Map<string, PortRates>();
[...index.portKeys].forEach((key, i) => {
  ports.set(key, {
    ...emptyPortRates(),
    transmitBytesPerSecond: (i % 97) * 1e8,
    receiveBytesPerSecond: (i % 89) * 1e8,
    linkUp: true,
    errors: { symbolErrors: i % 13 === 0 ? 2 : 0 },
  });
});
const store: MetricsStore = {
  kind: 'embedded',
  rates: async () => ({ timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports }),
  close: async () => {},
};

/** `read()` once it has not changed over five looks 20 ms apart (at most 10 s): the writer is waiting. */
async function steady(read: () => number): Promise<number> {
  let last = read();
  for (let same = 0, looks = 0; same < 5 && looks < 500; looks++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = read();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

/** A GET sent on a raw socket: its answer is read only when `reading` (the rest waits in the kernel). */
/** Resolves at the first bytes the socket receives. */
function firstData(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('data', () => resolve()));
}

function rawGet(port: number, path: string) {
  const socket: Socket = connect(port, '127.0.0.1');
  let head = '';
  let bytes = 0;
  const done = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => {
    if (head.length < 2000) head += chunk.toString('latin1', 0, Math.min(chunk.length, 2000));
    bytes += chunk.length;
  });
  socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
  return {
    socket,
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    head: () => head,
    bytes: () => bytes,
    done,
  };
}

describe('GET /links/export at fat-tree-6912', () => {
  let app: FastifyInstance;
  let port: number;
  let base: string;
  beforeAll(async () => {
    const sampler = new Sampler(store, index, 60_000);
    app = await buildApp({
      state: {
        fabric: { fabric, tables: fatTreeRouting(fabric), linkIndex: index },
        store,
        sampler,
        emulator: null,
      },
      listenHost: '127.0.0.1',
      // What these tests check is the export and its concurrency bound; a suite running beside
      // them on two cores can lag this loop past the default delay limit, which would refuse an
      // export for pressure (pressure.test.ts tests that refusal).
      pressure: { maxEventLoopDelayMs: 60_000 },
    });
    await sampler.sample();
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}/api/v1`;
  }, 60_000);
  afterAll(() => app.close());

  it('writes every direction of the instant, the same rows as the pages, in chunks (no content-length)', async () => {
    const res = await fetch(`${base}/links/export?format=ndjson`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-length')).toBeNull();
    const exported = (await res.text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LinkDirectionState);
    expect(exported.length).toBe(fabric.links.length * 2);
    expect(Number(res.headers.get('fabscope-directions'))).toBe(exported.length);

    const paged: LinkDirectionState[] = [];
    let url = `${base}/links?sort=id&limit=${PAGE_MAX}`;
    for (;;) {
      const page = (await (await fetch(url)).json()) as {
        time: string;
        links: LinkDirectionState[];
        next?: string;
      };
      expect(page.time).toBe(res.headers.get('fabscope-time'));
      paged.push(...page.links);
      if (page.next === undefined) break;
      url = `${base}/links?cursor=${page.next}&limit=${PAGE_MAX}`;
    }
    const byId = (a: LinkDirectionState, b: LinkDirectionState) => (a.id < b.id ? -1 : 1);
    expect(exported.sort(byId)).toEqual(paged.sort(byId));
  }, 60_000);

  it('serializes a chunk only when the one before has been taken (pulled, never the whole answer at once)', async () => {
    let serialized = 0;
    const rows = Array.from({ length: 10 * EXPORT_ROWS_PER_CHUNK }, (_, i) => ({
      toJSON: () => {
        serialized++;
        return { i };
      },
    }));
    const chunks = ndjsonChunks(rows.length, (i) => rows[i]);
    const first = await chunks.next();
    expect(serialized).toBe(EXPORT_ROWS_PER_CHUNK);
    expect((first.value as Buffer).toString().split('\n')[0]).toBe('{"i":0}');
    await chunks.next();
    expect(serialized).toBe(2 * EXPORT_ROWS_PER_CHUNK);
    await chunks.return(undefined);
  });

  it('a client that stops reading stops the export (backpressure): the rest is not serialized meanwhile', async () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const client = rawGet(port, '/api/v1/links/export');
      // Stop reading at the first bytes: on an idle machine the whole export is written in well
      // under a second, so a pause after a fixed wait can come after the end.
      await firstData(client.socket);
      client.socket.pause();
      // What the socket buffers hold is written; the export then waits for the reader.
      const whilePaused = await steady(() => stringify.mock.calls.length);
      await steady(() => stringify.mock.calls.length);
      expect(stringify.mock.calls.length - whilePaused, 'rows serialized while nobody reads').toBeLessThan(
        2 * EXPORT_ROWS_PER_CHUNK * 17,
      );
      expect(whilePaused).toBeLessThan(fabric.links.length * 2);
      client.socket.resume();
      await client.done;
      expect(client.status()).toBe(200);
      expect(client.bytes()).toBeGreaterThan(40e6);
    } finally {
      stringify.mockRestore();
    }
  }, 60_000);

  it('four exports at once: the fifth is refused 503 with Retry-After, and /health answers meanwhile', async () => {
    // Four clients that read slowly: their exports stay in flight.
    const slow = Array.from({ length: 4 }, () => rawGet(port, '/api/v1/links/export'));
    await Promise.all(
      slow.map(async (c) => {
        await firstData(c.socket);
        c.socket.pause();
      }),
    );
    expect(app.expensiveRunning()).toBe(4);
    const fifth = await fetch(`${base}/links/export`);
    expect(fifth.status).toBe(503);
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await fifth.json()) as { message: string }).message).toMatch(/4 expensive requests .* running/);
    // The four read on, all at once; /health is asked meanwhile.
    const latencies: number[] = [];
    for (const c of slow) c.socket.resume();
    const all = Promise.all(slow.map((c) => c.done));
    let finished = false;
    void all.then(() => {
      finished = true;
    });
    while (!finished && latencies.length < 40) {
      const started = performance.now();
      const health = await fetch(`${base}/health`);
      latencies.push(performance.now() - started);
      expect(health.status).toBe(200);
      const body = (await health.json()) as { eventLoopDelayMs: number };
      expect(body.eventLoopDelayMs).toEqual(expect.any(Number));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await all;
    for (const c of slow) expect(c.bytes()).toBeGreaterThan(40e6);
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    console.log(
      `/health during 4 exports: ${latencies.length} answers, median ${median.toFixed(1)} ms, max ${(sorted.at(-1) as number).toFixed(1)} ms`,
    );
    // Answers while the four ran show the exports yield the event loop; its latency is a bench figure.
    expect(latencies.length).toBeGreaterThan(3);
    // Every slot is free again once they are done.
    expect(app.expensiveRunning()).toBe(0);
    expect((await fetch(`${base}/links/export?kind=isl`)).status).toBe(200);
  }, 120_000);
});
