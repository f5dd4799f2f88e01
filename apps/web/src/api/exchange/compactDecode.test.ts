import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTierGroups } from '../../lib/tierGroups.ts';
import { summarizeSnapshot } from '../../lib/tierLoad.ts';
import { threeTier } from '../../test/testTopologies.ts';
import { createApiClient } from '../client.ts';
import { compactSnapshotOf } from '../stream/stream.ts';
import type { CompactSnapshot } from '../types.ts';
import { decodedTransfers } from './compactDecode.ts';
import type { ExchangeRequest } from './exchange.ts';
import type { ExchangeCall, ExchangeReply } from './exchangeWorker.ts';
import { fetchExchange } from './fetchExchange.ts';

const topology = threeTier();
const groups = buildTierGroups(topology);
const n = topology.links.length * 2;

const tick = {
  time: '2025-01-01T00:00:00.000Z',
  health: { status: 'ok', store: 'embedded', lastSampleAgeSeconds: null },
  summary: {
    time: '2025-01-01T00:00:00.000Z',
    hostTransmitBytesPerSecond: 1e9,
    histogram: { isl: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  },
  top: [],
};

const value = fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1.2, noNaN: true }), fc.constant(0.8));
const column = fc.array(value, { minLength: n, maxLength: n });
/** A compact message of the three-tier test fabric (`GET /instant?view=compact`'s answer). */
const message = fc
  .record({
    utilization: column,
    bytesPerSecond: column,
    waitFraction: fc.option(column, { nil: undefined }),
    errors: fc.uniqueArray(fc.nat(n - 1), { maxLength: 6 }),
    errorsUnknown: fc.nat(n + 1),
  })
  .map(({ errors, waitFraction, ...m }) => ({
    ...tick,
    ...m,
    ...(waitFraction ? { waitFraction } : {}),
    errors: errors.map((c) => [c, 1, null]),
  }));

const instantRequest: ExchangeRequest = {
  method: 'GET',
  url: '/api/v1/instant?time=2025-01-01T00%3A00%3A00.000Z&view=compact',
  headers: { Accept: 'application/json' },
  body: null,
  noStore: false,
  decode: { channels: n, tiers: groups },
};

/** One exchange (with its memory of decoded texts) answering `text` to every read. */
const answering = (text: string, status = 200) => fetchExchange(async () => new Response(text, { status }));

describe('a past instant decoded where it is parsed (the exchange worker)', () => {
  it('arrives as the Float64Arrays and tier summary the page would make of it, its buffers transferred', async () => {
    await fc.assert(
      fc.asyncProperty(message, async (m) => {
        const answer = await answering(JSON.stringify(m))(instantRequest);
        expect(answer.body.kind).toBe('json');
        const transfer = decodedTransfers(answer.body);
        expect(transfer).toHaveLength(3);
        // What the page receives: the worker's postMessage with those buffers transferred.
        const received = structuredClone(answer, { transfer });
        for (const buffer of transfer) expect(buffer.byteLength).toBe(0);
        const onPage = compactSnapshotOf(structuredClone(m), n);
        const snapshot = (received.body as { value: CompactSnapshot }).value;
        expect(snapshot.utilization).toEqual(onPage.utilization);
        expect(snapshot.bytesPerSecond).toEqual(onPage.bytesPerSecond);
        expect(snapshot.waitFraction).toEqual(onPage.waitFraction);
        expect(snapshot.tiers).toEqual(summarizeSnapshot(groups, onPage));
        expect({ ...snapshot, utilization: 0, bytesPerSecond: 0, waitFraction: 0, tiers: 0 }).toEqual({
          ...onPage,
          utilization: 0,
          bytesPerSecond: 0,
          waitFraction: 0,
          tiers: 0,
        });
      }),
      { numRuns: 40 },
    );
  });

  it('without tier groups, carries no summary; an error answer is not decoded', async () => {
    const m = fc.sample(message, 1)[0];
    const plain = await answering(JSON.stringify(m))({ ...instantRequest, decode: { channels: n } });
    expect((plain.body as { value: CompactSnapshot }).value.tiers).toBeUndefined();
    const refused = await answering('{"error":"not_found","message":"no data"}', 404)(instantRequest);
    expect(refused.body).toEqual({ kind: 'json', value: { error: 'not_found', message: 'no data' } });
    expect(decodedTransfers(refused.body)).toEqual([]);
  });

  it('a message that does not fit the topology fails with what the stream would say of it', async () => {
    const short = { ...tick, utilization: [0.5], bytesPerSecond: [1] };
    const answer = await answering(JSON.stringify(short))(instantRequest);
    expect(answer.body).toEqual({
      kind: 'invalid',
      message: `stream message: utilization has 1 channels, the topology ${n}; reload the page`,
    });
    const api = createApiClient({ fetch: async () => new Response(JSON.stringify(short)) });
    await expect(api.getCompactInstant('2025-01-01T00:00:00.000Z', { channels: n })).rejects.toThrow(
      `utilization has 1 channels, the topology ${n}`,
    );
  });
});

describe('a past instant read again', () => {
  it('is the very object held when its text is the same, a new one when it changed', async () => {
    const [first, second] = fc.sample(message, 2) as [unknown, unknown];
    let text = JSON.stringify(first);
    let reads = 0;
    const api = createApiClient({
      fetch: async () => {
        reads++;
        return new Response(text);
      },
    });
    const time = '2025-01-01T00:00:00.000Z';
    const decode = { channels: n, tiers: groups };
    const a = await api.getCompactInstant(time, decode);
    const again = await api.getCompactInstant(time, decode);
    expect(again).toBe(a);
    text = JSON.stringify({ ...(second as object), time: '2025-01-01T00:00:01.000Z' });
    const changed = await api.getCompactInstant(time, decode);
    expect(changed).not.toBe(a);
    expect(changed.time).toBe('2025-01-01T00:00:01.000Z');
    expect(await api.getCompactInstant(time, decode)).toBe(changed);
    expect(reads).toBe(4);
  });

  it('is answered unchanged only for the text of the answer the page names', async () => {
    const text = JSON.stringify(fc.sample(message, 1)[0]);
    const exchange = answering(text);
    const first = await exchange(instantRequest);
    expect(first.body.kind).toBe('json');
    const held = first.decoded;
    expect(await exchange({ ...instantRequest, decode: { ...instantRequest.decode, held } })).toMatchObject({
      body: { kind: 'unchanged' },
      decoded: held,
    });
    // Another answer decoded since (say one the page dropped): the page's is not the newest.
    await exchange(instantRequest);
    const stale = await exchange({ ...instantRequest, decode: { ...instantRequest.decode, held } });
    expect(stale.body.kind).toBe('json');
    // Nothing held: decoded.
    expect((await exchange(instantRequest)).body.kind).toBe('json');
  });
});

describe('the exchange worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('transfers a decoded answer’s buffers with its reply, and nothing with any other', async () => {
    const m = fc.sample(message, 1)[0];
    const posted: { reply: ExchangeReply; transfer: Transferable[] }[] = [];
    const scope = {
      onmessage: null as ((event: MessageEvent<ExchangeCall>) => void) | null,
      postMessage: (reply: ExchangeReply, transfer: Transferable[]) => posted.push({ reply, transfer }),
    };
    vi.stubGlobal('self', scope);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(m)));
    await import('./exchangeWorker.ts');
    const absolute = { ...instantRequest, url: `http://127.0.0.1:8080${instantRequest.url}` };
    scope.onmessage?.({ data: { id: 1, request: absolute } } as MessageEvent<ExchangeCall>);
    scope.onmessage?.({
      data: { id: 2, request: { ...absolute, decode: undefined } },
    } as MessageEvent<ExchangeCall>);
    await vi.waitFor(() => expect(posted).toHaveLength(2));
    const decoded = posted.find((p) => p.reply.id === 1);
    const plain = posted.find((p) => p.reply.id === 2);
    if (!decoded || !('answer' in decoded.reply)) throw new Error('no answer to the decoded read');
    const snapshot = (decoded.reply.answer.body as { value: CompactSnapshot }).value;
    expect(decoded.transfer).toEqual([
      snapshot.utilization.buffer,
      snapshot.bytesPerSecond.buffer,
      snapshot.waitFraction.buffer,
    ]);
    expect(plain?.transfer).toEqual([]);
  });
});
