import { get } from 'node:http';
import { createInflate, inflateSync, constants as zlibConstants } from 'node:zlib';
import type { LinkDirectionState } from '@fabscope/contracts';
import { buildScenario, channelOf } from '@fabscope/topology';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { roundUtilization } from '../src/lib/compact-tick.ts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { type PortRates, portKey, type RatesSnapshot } from '../src/lib/port-rates.ts';
import { acceptsDeflate, deflateFrame, deflateFrameAsync, ZLIB_HEADER } from '../src/lib/sse-deflate.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { DELIVERY_BATCH, TickBroadcast } from '../src/tick-broadcast.ts';
import { buildTestApp } from './helper.ts';
import { directionState } from './oracles/object-path.ts';
import { busiestPerKind, compactTick, firstK } from './oracles/rankings.ts';

const fabric = buildScenario('ar-demo');

function state(
  id: string,
  kind: 'isl' | 'host',
  utilization: number | null,
  extra: Partial<LinkDirectionState> = {},
): LinkDirectionState {
  const fixed = { id, linkId: id, kind, from: { node: id, port: 1 }, to: { node: 'x', port: 1 } };
  return directionState(
    { ...fixed, capacityBytesPerSecond: 12.5e9 },
    {
      bytesPerSecond: utilization === null ? null : utilization * 12.5e9,
      packetsPerSecond: null,
      transmitWaitTicksPerSecond: null,
      transmitWaitFraction: extra.transmitWaitFraction ?? null,
      linkUp: extra.linkUp ?? null,
      errors: extra.errors ?? UNKNOWN_ERRORS,
      categories: extra.categories ?? UNKNOWN_CATEGORIES,
    },
  );
}

describe('compactTick', () => {
  it('rounds utilization to 1e-4 and bytes to whole bytes, keeping unknown as null', () => {
    expect(roundUtilization(0.123449)).toBe(0.1234);
    expect(roundUtilization(0.99996)).toBe(1);
    expect(roundUtilization(1 / 3)).toBe(0.3333);
    expect(roundUtilization(null)).toBeNull();
    expect(roundUtilization(Number.NaN)).toBeNull();
    const links = [state('a', 'isl', 1 / 3), state('b', 'host', null), state('c', 'host', 0)];
    const tick = compactTick({ time: 't', health: { h: 1 }, summary: { s: 2 }, links });
    expect(tick.utilization).toEqual([0.3333, null, 0]);
    expect(tick.bytesPerSecond).toEqual([4_166_666_667, null, 0]);
    expect(tick).toMatchObject({ time: 't', health: { h: 1 }, summary: { s: 2 } });
    expect(JSON.stringify(tick.utilization)).toBe('[0.3333,null,0]');
  });

  it('carries the XmitWait fraction per channel (null when unknown) and lists the channels down', () => {
    const links = [
      state('a', 'isl', 0.99, { transmitWaitFraction: 0.500049, linkUp: true }),
      state('b', 'isl', 0, { transmitWaitFraction: 0, linkUp: false }),
      state('c', 'host', 0.5, { transmitWaitFraction: null, linkUp: null }),
      state('d', 'host', 0, { transmitWaitFraction: 0, linkUp: false }),
    ];
    const tick = compactTick({ time: 't', health: null, summary: null, links });
    expect(tick.waitFraction).toEqual([0.5, 0, null, 0]);
    expect(tick.linkDown).toEqual([1, 3]);
  });

  it('keeps the busiest directions of each kind, busiest first, unknown last, ties by id', () => {
    const links = [
      state('h1', 'host', 0.2),
      state('i1', 'isl', 0.9),
      state('i2', 'isl', null),
      state('h2', 'host', 0.95),
      state('i3', 'isl', 0.5),
      state('i4', 'isl', 0.5),
      state('h3', 'host', 0.1),
    ];
    expect(busiestPerKind(links, 2).map((l) => l.id)).toEqual(['h2', 'i1', 'i3', 'h1']);
    expect(busiestPerKind(links, 10).map((l) => l.id)).toEqual(['h2', 'i1', 'i3', 'i4', 'h1', 'h3', 'i2']);
    expect(busiestPerKind(links, 0)).toEqual([]);
    expect(() => busiestPerKind(links, -1)).toThrow(/limit/);
  });

  it('top holds the head of every ranking per kind: utilization, wait and each PM category', () => {
    const cats = (integrity: number | null, congestion: number | null) => ({
      categories: { ...UNKNOWN_CATEGORIES, integrity, congestion },
    });
    const links = [
      state('i1', 'isl', 0.9, { transmitWaitFraction: 0, ...cats(0, 0) }),
      state('i2', 'isl', 0.1, { transmitWaitFraction: 0.858, ...cats(0, 8.58) }),
      state('i3', 'isl', 0.05, { transmitWaitFraction: 0.1, ...cats(12, 1) }),
      state('i4', 'isl', 0.5, { transmitWaitFraction: 0.2, ...cats(0.5, 2) }),
      state('h1', 'host', 0.8, { transmitWaitFraction: 0, ...cats(0, 0) }),
      state('h2', 'host', 0.01, { transmitWaitFraction: 0, ...cats(3, 0) }),
    ];
    const compact = compactTick({ time: 't', health: null, summary: null, links }, 1);
    // i1 busiest ISL, i2 most waiting and most congested, i3 worst integrity; h1 busiest host, h2 worst
    // integrity host; h1 heads the host wait ranking on the tie (by id). i4 heads nothing.
    expect(compact.top.map((l) => l.id)).toEqual(['i1', 'h1', 'i2', 'i3', 'h2']);
    for (const key of ['integrity', 'congestion'] as const) {
      const api = [...links]
        .filter((l) => l.kind === 'isl')
        .sort((a, b) => (b.categories[key] ?? -1) - (a.categories[key] ?? -1))[0];
      const client = compact.top
        .filter((l) => l.kind === 'isl')
        .sort((a, b) => (b.categories[key] ?? -1) - (a.categories[key] ?? -1))[0];
      expect(client?.id).toBe(api?.id);
    }
  });

  it('lists the channels with errors or integrity past its threshold, as [channel, errors/s, integrity]', () => {
    const links = [
      state('a', 'isl', 0.1, { errors: { ...UNKNOWN_ERRORS, receiveErrors: 2.5, symbolErrors: 1000 } }),
      state('b', 'isl', 0.1, { errors: { ...UNKNOWN_ERRORS, receiveErrors: 0 } }),
      state('c', 'isl', 0.1, { categories: { ...UNKNOWN_CATEGORIES, integrity: 1.2 } }),
      state('d', 'isl', 0.1, { errors: { ...UNKNOWN_ERRORS, congestionDiscards: 50 } }), // congestion, not errors
    ];
    const tick = compactTick({ time: 't', health: null, summary: null, links });
    expect(tick.errors).toEqual([
      [0, 1002.5, null],
      [2, 0, 1.2],
    ]);
    // c's and d's error counters are unknown (c has its integrity, d a congestion counter only):
    // counted apart, not as 0.
    expect(tick.errorsUnknown).toBe(2);
  });

  it('firstK keeps the first k in order without sorting everything (property: same as sort + slice)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), fc.nat(20), (values, k) => {
        const cmp = (a: number, b: number) => b - a;
        expect(firstK(values, k, cmp)).toEqual([...values].sort(cmp).slice(0, k));
      }),
    );
  });
});

/** A store with fixed rates: edge1's up-port to core2 sends at 12.4 GB/s, every other port idles. */
function fixedStore(): MetricsStore {
  const ports = new Map<string, PortRates>();
  const idle: PortRates = {
    transmitBytesPerSecond: 0,
    receiveBytesPerSecond: 0,
    transmitPacketsPerSecond: 0,
    receivePacketsPerSecond: 0,
    transmitWaitTicksPerSecond: 0,
    transmitWaitTickSeconds: 6.4e-10,
    linkUp: true,
  };
  for (const node of fabric.nodes) {
    for (let p = 1; p < node.ports.length; p++) ports.set(portKey(node.guid, p), idle);
  }
  const edge1 = fabric.nodeByName.get('edge1');
  if (!edge1) throw new Error('no edge1');
  ports.set(portKey(edge1.guid, 4), { ...idle, transmitBytesPerSecond: 12.4e9 });
  return {
    kind: 'embedded',
    rates: async (): Promise<RatesSnapshot> => ({
      timeMs: Date.now(),
      ok: true,
      lastSampleAgeSeconds: 0.2,
      ports,
    }),
    close: async () => {},
  };
}

describe('Sampler encodings', () => {
  it('serializes an encoding once per tick, only while a client of it is connected', async () => {
    const sampler = new Sampler(fixedStore(), new LinkIndex(fabric));
    const stream = new TickBroadcast(sampler);
    await sampler.sample();
    expect(stream.serializations).toEqual({ full: 0, compact: 0 });

    const compactMessages: Buffer[][] = [[], [], []];
    const unsubscribe = compactMessages.map((list) =>
      stream.subscribe((frame) => list.push(frame), 'compact'),
    );
    // A new client gets the latest tick at once; the encoding is made once for all three.
    expect(stream.serializations).toEqual({ full: 0, compact: 1 });
    await sampler.sample();
    expect(stream.serializations).toEqual({ full: 0, compact: 2 });
    for (const list of compactMessages) expect(list).toHaveLength(2);
    // The very same bytes for every client: one buffer per tick, not one copy per client.
    expect(compactMessages[0]?.[1]).toBe(compactMessages[2]?.[1]);
    expect(compactMessages[0]?.[1]?.toString()).toMatch(/^data: \{.*\}\n\n$/s);

    const full: Buffer[] = [];
    const stopFull = stream.subscribe((frame) => full.push(frame), 'full');
    await sampler.sample();
    expect(stream.serializations).toEqual({ full: 2, compact: 3 });
    const fullJson = full[1]?.toString().replace(/^data: /, '') ?? '{}';
    expect(JSON.parse(fullJson).links).toHaveLength(fabric.links.length * 2);

    for (const stop of unsubscribe) stop();
    stopFull();
    await sampler.sample();
    expect(stream.serializations).toEqual({ full: 2, compact: 3 });
    expect(stream.clientCount).toBe(0);
  });
});

describe('Sampler delivery', () => {
  it('writes a tick to many clients in batches, freeing the event loop between them, and skips clients gone meanwhile', async () => {
    const sampler = new Sampler(fixedStore(), new LinkIndex(fabric));
    const stream = new TickBroadcast(sampler);
    const received = Array.from({ length: 3 * DELIVERY_BATCH }, () => [] as Buffer[]);
    const stops = received.map((list) => stream.subscribe((frame) => list.push(frame), 'compact'));
    await sampler.sample();
    // The first batch at once; the rest after the event loop has turned.
    expect(received.filter((list) => list.length === 1)).toHaveLength(DELIVERY_BATCH);
    stops[received.length - 1]?.();
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(received.slice(0, -1).every((list) => list.length === 1 && list[0] === received[0]?.[0])).toBe(
      true,
    );
    expect(received.at(-1)).toHaveLength(0);
  });
});

describe('GET /api/v1/stream?view=compact over a real socket', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  async function start(): Promise<string> {
    const store = fixedStore();
    const linkIndex = new LinkIndex(fabric);
    const sampler = new Sampler(store, linkIndex);
    await sampler.sample();
    app = await buildTestApp({ fabric, linkIndex, store, sampler });
    return app.listen({ host: '127.0.0.1', port: 0 });
  }

  async function firstMessage(url: string): Promise<unknown> {
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body?.getReader();
    let text = '';
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) throw new Error(`stream ended before a message: ${text}`);
        text += new TextDecoder().decode(chunk.value);
        const match = /^data: (.*)$/m.exec(text);
        if (match?.[1] && text.includes('\n\n', match.index)) return JSON.parse(match[1]);
      }
    } finally {
      controller.abort();
    }
  }

  /** The first event-stream message as a client with this Accept-Encoding reads it. */
  function firstRawMessage(
    url: string,
    acceptEncoding?: string,
  ): Promise<{ encoding?: string; message: string }> {
    return new Promise((resolve, reject) => {
      const request = get(
        url,
        { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (response) => {
          const encoding = response.headers['content-encoding'];
          const body = encoding === 'deflate' ? response.pipe(createInflate()) : response;
          let text = '';
          body.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            const match = /^data: .*\n\n/m.exec(text);
            if (match) {
              request.destroy();
              resolve({ ...(encoding ? { encoding } : {}), message: match[0] });
            }
          });
          body.on('error', reject);
        },
      );
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
  }

  it('deflates the stream for clients that accept it, plain for the others: the same messages', async () => {
    const address = await start();
    const url = `${address}/api/v1/stream?view=compact`;
    const deflated = await firstRawMessage(url, 'gzip, deflate, br');
    const plain = await firstRawMessage(url);
    expect(deflated.encoding).toBe('deflate');
    expect(plain.encoding).toBeUndefined();
    expect(JSON.parse(deflated.message.slice(6))).toEqual(JSON.parse(plain.message.slice(6)));
  });

  it('sends per-channel arrays in topology order and the busiest directions', async () => {
    const address = await start();
    const message = (await firstMessage(`${address}/api/v1/stream?view=compact`)) as {
      utilization: (number | null)[];
      bytesPerSecond: (number | null)[];
      top: { id: string; kind: string; utilization: number }[];
      summary: { histogram: { isl: number[] } };
      links?: unknown;
    };
    expect(message.links).toBeUndefined();
    expect(message.utilization).toHaveLength(fabric.links.length * 2);
    const topology = (await (await fetch(`${address}/api/v1/topology`)).json()) as {
      links: { a: { node: string; port: number }; b: { node: string; port: number } }[];
    };
    // Channel 2i is link i a→b: find edge1/4 → core2/1 through the topology, as a client does.
    const i = topology.links.findIndex((l) => l.a.node === 'edge1' && l.a.port === 4);
    expect(topology.links[i]?.b).toEqual({ node: 'core2', port: 1 });
    expect(message.utilization[2 * i]).toBe(0.992);
    expect(message.bytesPerSecond[2 * i]).toBe(12.4e9);
    expect(message.utilization[2 * i + 1]).toBe(0);
    expect(channelOf(fabric, 2 * i).id).toBe('edge1/4->core2/1');
    expect(message.top[0]).toMatchObject({ id: 'edge1/4->core2/1', kind: 'isl', utilization: 0.992 });
    expect(message.top).toHaveLength(fabric.links.length * 2); // ar-demo: fewer than 50 per kind
    expect(message.summary.histogram.isl[9]).toBe(1);
  });

  it('defaults to the compact view any fabric can afford, serves full on request, refuses an unknown view', async () => {
    const address = await start();
    const byDefault = (await firstMessage(`${address}/api/v1/stream`)) as Record<string, unknown>;
    expect(byDefault.links).toBeUndefined();
    expect(byDefault.utilization).toHaveLength(fabric.links.length * 2);
    const message = (await firstMessage(`${address}/api/v1/stream?view=full`)) as { links: { id: string }[] };
    expect(message.links).toHaveLength(fabric.links.length * 2);
    const bad = await fetch(`${address}/api/v1/stream?view=tiny`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/view/);
    const doc = (await (await fetch(`${address}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { description: string; parameters: { name: string }[] } }>;
    };
    const stream = doc.paths['/api/v1/stream']?.get;
    expect(stream?.parameters.map((p) => p.name)).toContain('view');
    expect(stream?.description).toMatch(/topology order/);
  });
});

describe('the stream deflated once per tick for every client', () => {
  it('deflates on the thread pool to the very bytes of the synchronous deflate', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 5000 }), async (text) => {
        const frame = `data: ${text}\n\n`;
        expect(await deflateFrameAsync(frame)).toEqual(deflateFrame(frame));
      }),
      { numRuns: 50 },
    );
  });

  it('any run of deflated frames after the zlib header inflates to the plain frames, whenever a client joined', async () => {
    const sampler = new Sampler(fixedStore(), new LinkIndex(fabric));
    const stream = new TickBroadcast(sampler);
    const plain: Buffer[] = [];
    const early: Buffer[] = [];
    const late: Buffer[] = [];
    stream.subscribe((frame) => plain.push(frame), 'compact');
    stream.subscribe((frame) => early.push(frame), 'compact', 'deflate');
    await sampler.sample();
    await sampler.sample();
    stream.subscribe((frame) => late.push(frame), 'compact', 'deflate');
    await sampler.sample();
    expect(early).toHaveLength(3);
    expect(late).toHaveLength(2);
    // One compressed Buffer per tick, shared: the late client got the same bytes for the last tick.
    expect(late[1]).toBe(early[2]);
    // Far smaller than the JSON it carries.
    expect((early[2] as Buffer).length).toBeLessThan((plain[2] as Buffer).length / 3);
    // Decoded as a browser decodes `Content-Encoding: deflate`: one stream, flushed as it arrives.
    const inflate = (frames: Buffer[]) =>
      inflateSync(Buffer.concat([ZLIB_HEADER, ...frames]), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    expect(inflate(early).toString()).toBe(Buffer.concat(plain).toString());
    expect(inflate(late).toString()).toBe(Buffer.concat(plain.slice(1)).toString());
    // The plain encoding was serialized once per tick, compression works from it.
    expect(stream.serializations.compact).toBe(3);
  });

  it('reads Accept-Encoding as HTTP does: listed or *, unless q=0', () => {
    expect(acceptsDeflate('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsDeflate('gzip;q=1.0, deflate;q=0.5')).toBe(true);
    expect(acceptsDeflate('*')).toBe(true);
    expect(acceptsDeflate('gzip, deflate;q=0')).toBe(false);
    expect(acceptsDeflate('gzip, br')).toBe(false);
    expect(acceptsDeflate(undefined)).toBe(false);
  });
});
