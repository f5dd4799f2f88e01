import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmulator,
  type EmulatorServer,
  PORT_COUNTER_NAMES,
  type PortCountersDocument,
  startEmulatorServer,
} from '../../src/index.ts';
import { PortsDocumentBuilder } from '../../src/ports-document.ts';
import { arDemoEmulator, SEED_PAIRS } from '../helpers.ts';

describe('emulator HTTP server', () => {
  const emulator = arDemoEmulator();
  let server: EmulatorServer;
  /** The wall clock the server follows, moved by the tests. */
  let wallMs = 0;

  beforeAll(async () => {
    server = await startEmulatorServer(emulator, { tickMs: 20, clock: () => wallMs });
  });
  afterAll(async () => {
    await server.close();
  });

  const call = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as never };
  };

  it('listens on an ephemeral loopback port and reports health', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, json } = await call('GET', '/v1/health');
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'ok', fabric: 'ar-demo', fabricType: 'omnipath' });
  });

  it('writes /v1/ports straight to JSON: the same document as portCounters(), down links too', () => {
    const e = arDemoEmulator();
    e.startFlows({ pattern: 'pairs', pairs: SEED_PAIRS });
    e.advance(3000);
    e.injectFault({ type: 'link-down', link: 'edge1/4--core2/1' });
    e.advance(100);
    const doc = JSON.parse(Buffer.concat(e.portCountersJson()).toString('utf8')) as PortCountersDocument;
    expect(doc).toEqual(e.portCounters());
    expect(doc.ports.some((p) => p.linkState === 'down')).toBe(true);
    expect(doc.ports.some((p) => BigInt(p.counters.XmitData) > 0n)).toBe(true);
  });

  it('writes 64-bit counters past 2^53 exactly', () => {
    const builder = new PortsDocumentBuilder(buildScenario('ar-demo'));
    const values = [
      2n ** 64n - 1n,
      2n ** 53n + 1n,
      2n ** 53n - 1n,
      0n,
      9n,
      10n,
      123456789012345678n,
      1n,
      99n,
      100n,
    ];
    const read = (_out: number, into: bigint[]) => {
      values.forEach((v, i) => {
        into[i] = v;
      });
    };
    const linkUp = new Uint8Array(100).fill(1);
    const doc = JSON.parse(Buffer.concat(builder.buildJson(5, read, linkUp)).toString('utf8'));
    expect(doc).toEqual(builder.build(5, read, linkUp));
    expect(doc.ports[0].counters.XmitData).toBe('18446744073709551615');
  });

  it('serves the port counters document', async () => {
    const { status, headers, json } = await call('GET', '/v1/ports');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/application\/json/);
    const doc = json as PortCountersDocument;
    expect(doc).toMatchObject({ fabric: 'ar-demo', fabricType: 'omnipath', dataUnitBytes: 8 });
    expect(typeof doc.timeMs).toBe('number');
    expect(doc.ports).toHaveLength(16);
    for (const port of doc.ports) {
      // An Omni-Path port: every counter but InfiniBand's VL15Dropped, which it lacks (absent, not 0).
      expect(Object.keys(port.counters)).toEqual(PORT_COUNTER_NAMES.filter((n) => n !== 'VL15Dropped'));
      for (const value of Object.values(port.counters)) expect(value).toMatch(/^\d+$/);
    }
  });

  it('starts, lists and stops flows; the clock follows the wall clock', async () => {
    const started = await call('POST', '/v1/flows', JSON.stringify({ pattern: 'pairs', pairs: SEED_PAIRS }));
    expect(started.status).toBe(200);
    expect((started.json as { flows: { from: string }[] }).flows.map((f) => f.from)).toEqual([
      'nodeA',
      'nodeB',
    ]);
    const t0 = emulator.nowMs();
    wallMs += 120.5;
    const listed = await call('GET', '/v1/flows');
    expect((listed.json as { flows: unknown[] }).flows).toHaveLength(2);
    expect(emulator.nowMs() - t0).toBe(120);
    const ports = (await call('GET', '/v1/ports')).json as PortCountersDocument;
    const nodeA = ports.ports.find((p) => p.nodeName === 'nodeA');
    expect(BigInt(nodeA?.counters.XmitData ?? '0')).toBeGreaterThan(0n);
    const stopped = await call('DELETE', '/v1/flows');
    expect(stopped).toMatchObject({ status: 200, json: { flows: [] } });
  });

  it('answers a summary of what started with ?first=N: count, jobs, bytes/s together, the first N flows', async () => {
    const whole = await call('POST', '/v1/flows', JSON.stringify({ pattern: 'all-to-all', job: 'a2a' }));
    const every = (whole.json as { flows: { bytesPerSecond: number; path: string[] }[] }).flows;
    await call('DELETE', '/v1/flows');
    const summary = await call(
      'POST',
      '/v1/flows?first=2',
      JSON.stringify({ pattern: 'all-to-all', job: 'a2a' }),
    );
    expect(summary.status).toBe(200);
    const answer = summary.json as {
      started: number;
      jobs: string[];
      bytesPerSecond: number;
      flows: { path: string[] }[];
    };
    expect(every.length).toBeGreaterThan(2);
    expect(answer.started).toBe(every.length);
    expect(answer.jobs).toEqual(['a2a']);
    expect(answer.bytesPerSecond).toBeCloseTo(
      every.reduce((sum, f) => sum + f.bytesPerSecond, 0),
      0,
    );
    expect(answer.flows).toHaveLength(2);
    expect(answer.flows[0]?.path.length).toBeGreaterThan(0);
    await call('DELETE', '/v1/flows');
    for (const query of ['?first=-1', '?first=1.5', '?first=1001', '?first=1&first=2', '?all=1']) {
      const refused = await call('POST', `/v1/flows${query}`, JSON.stringify({ pattern: 'all-to-all' }));
      expect(refused.status, query).toBe(400);
    }
    expect(((await call('GET', '/v1/flows')).json as { flows: unknown[] }).flows).toEqual([]);
  });

  it('pages its flows in listings: ?limit= opens one, ?listing=&offset= reads on from the same flows', async () => {
    await call('POST', '/v1/flows', JSON.stringify({ pattern: 'all-to-all', job: 'a2a' }));
    type Page = {
      listing: string;
      total: number;
      jobs: { job: string; flows: number }[];
      flows: { id: string }[];
    };
    const first = (await call('GET', '/v1/flows?limit=5')).json as Page;
    expect(first.total).toBe(12);
    expect(first.jobs).toEqual([expect.objectContaining({ job: 'a2a', flows: 12 })]);
    await call('POST', '/v1/flows', JSON.stringify({ pattern: 'shift', k: 1, job: 'later' }));
    const ids = [...first.flows.map((f) => f.id)];
    for (const offset of [5, 10]) {
      const page = (await call('GET', `/v1/flows?listing=${first.listing}&offset=${offset}&limit=5`))
        .json as Page;
      expect(page.total).toBe(12);
      ids.push(...page.flows.map((f) => f.id));
    }
    expect(new Set(ids).size).toBe(12);
    // Started since: a new listing has them.
    expect(((await call('GET', '/v1/flows?limit=1')).json as Page).total).toBe(16);
    expect(((await call('GET', '/v1/flows?limit=1&job=later')).json as Page).total).toBe(4);
    for (const [query, status] of [
      ['?limit=0', 400],
      ['?limit=5001', 400],
      ['?listing=L1&offset=0', 400],
      ['?offset=3&limit=2', 400],
      ['?limit=2&from=nodeA', 400],
      [`?listing=${first.listing}&offset=99&limit=2`, 400],
      [`?listing=${first.listing}&offset=0&limit=2&job=later`, 400],
      ['?listing=Lnone&offset=0&limit=2', 410],
    ] as const) {
      expect((await call('GET', `/v1/flows${query}`)).status, query).toBe(status);
    }
    await call('DELETE', '/v1/flows');
  });

  it('filters flows by ends, job and link direction, and lists jobs', async () => {
    await call('POST', '/v1/flows', JSON.stringify({ pattern: 'pairs', pairs: SEED_PAIRS, job: 'seed' }));
    const iperf = await call(
      'POST',
      '/v1/flows',
      JSON.stringify({ pattern: 'iperf', from: 'nodeD', to: 'nodeA', streams: 3 }),
    );
    // A request without a job is a job of its own, named after its pattern.
    const iperfJob = (iperf.json as { flows: { job: string }[] }).flows[0]?.job as string;
    expect(iperfJob).toMatch(/^iperf-\d+$/);
    const list = async (query: string) =>
      (
        (await call('GET', `/v1/flows${query}`)).json as {
          flows: { from: string; to: string; job: string }[];
        }
      ).flows;
    expect((await list('?from=nodeA&to=nodeC')).map((f) => f.job)).toEqual(['seed']);
    expect(await list('?job=seed')).toHaveLength(2);
    expect(await list(`?job=${iperfJob}&from=nodeD`)).toHaveLength(3);
    // Both seed flows cross edge1→core2 under static routing; the iperf flows run the other way.
    expect((await list(`?link=${encodeURIComponent('edge1/4->core2/1')}`)).map((f) => f.from)).toEqual([
      'nodeA',
      'nodeB',
    ]);
    expect(await list(`?link=${encodeURIComponent('no/1->such/2')}`)).toEqual([]);
    expect((await call('GET', '/v1/flows?colour=red')).status).toBe(400);
    expect((await call('GET', '/v1/flows?job=a&job=b')).status).toBe(400);
    const jobs = (await call('GET', '/v1/jobs')).json as {
      jobs: { name: string; nodes: string[]; flows: number; state: string }[];
    };
    expect(jobs.jobs.map((j) => [j.name, j.nodes, j.flows, j.state])).toEqual([
      ['seed', ['nodeA', 'nodeB', 'nodeC', 'nodeD'], 2, 'running'],
      [iperfJob, ['nodeA', 'nodeD'], 3, 'running'],
    ]);
    await call('DELETE', '/v1/flows');
    expect(((await call('GET', '/v1/jobs')).json as { jobs: unknown[] }).jobs).toEqual([]);
  });

  it('answers 400 with the reason for bad flows and bad JSON', async () => {
    const unknown = await call(
      'POST',
      '/v1/flows',
      JSON.stringify({ pattern: 'pairs', pairs: [['nodeA', 'nodeZ']] }),
    );
    expect(unknown).toMatchObject({
      status: 400,
      json: { error: expect.stringContaining('unknown node "nodeZ"') },
    });
    const self = await call(
      'POST',
      '/v1/flows',
      JSON.stringify({ pattern: 'pairs', pairs: [['nodeA', 'nodeA']] }),
    );
    expect(self).toMatchObject({ status: 400, json: { error: expect.stringContaining('itself') } });
    const empty = await call('POST', '/v1/flows', JSON.stringify({ pattern: 'pairs', pairs: [] }));
    expect(empty).toMatchObject({ status: 400, json: { error: expect.stringContaining('empty') } });
    const broken = await call('POST', '/v1/flows', '{"pattern": ');
    expect(broken).toMatchObject({ status: 400, json: { error: expect.stringContaining('not valid JSON') } });
    const none = await call('POST', '/v1/flows');
    expect(none.status).toBe(400);
  });

  it('answers quantities out of bounds 400 naming the field, and keeps serving (1e400MiB once wedged it)', async () => {
    for (const [body, field] of [
      [{ pattern: 'storage', server: 'nodeA', op: 'read', ioSize: '1e400MiB' }, 'ioSize'],
      [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', duration: '400d' }, 'duration'],
      [{ pattern: 'iperf', from: 'nodeA', to: 'nodeC', duration: 1e300 }, 'duration'],
      [{ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], demand: '1e300Gb/s' }, 'demand'],
    ] as const) {
      const bad = await call('POST', '/v1/flows', JSON.stringify(body));
      expect(bad).toMatchObject({ status: 400, json: { error: expect.stringContaining(field) } });
    }
    const good = await call('POST', '/v1/flows', JSON.stringify({ pattern: 'shift', k: 1 }));
    expect(good.status).toBe(200);
    expect((await call('GET', '/v1/ports')).status).toBe(200);
    expect((await call('DELETE', '/v1/flows')).status).toBe(200);
  });

  it('on loopback, refuses changes whose Host is not a loopback name (DNS rebinding)', async () => {
    const url = new URL(server.url);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'DELETE',
          path: '/v1/flows',
          headers: { host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('reads and updates adaptive routing, refusing invalid values', async () => {
    const initial = await call('GET', '/v1/adaptive-routing');
    expect(initial.json).toEqual({
      enabled: false,
      lostRouteOnly: false,
      algorithm: 2,
      arFrequency: 0,
      threshold: 7,
    });
    const bad = await call('PUT', '/v1/adaptive-routing', JSON.stringify({ threshold: 9 }));
    expect(bad).toMatchObject({ status: 400, json: { error: 'threshold must be an integer 0..7, got 9' } });
    const good = await call('PUT', '/v1/adaptive-routing', JSON.stringify({ enabled: true }));
    expect(good).toMatchObject({ status: 200, json: { enabled: true, threshold: 7, algorithm: 2 } });
    expect(emulator.getAdaptiveRouting().enabled).toBe(true);
  });

  it('answers 404 for unknown paths and 405 with Allow for wrong methods', async () => {
    const missing = await call('GET', '/v1/nothing');
    expect(missing).toMatchObject({ status: 404, json: { error: expect.stringContaining('/v1/nothing') } });
    const wrong = await call('DELETE', '/v1/ports');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect(wrong.json).toMatchObject({ error: expect.stringContaining('not allowed') });
  });
});

describe('emulator server beyond loopback', () => {
  it('refuses changes without the token, accepts them with it, and keeps reads open', async () => {
    const emulator = arDemoEmulator();
    const server = await startEmulatorServer(emulator, { host: '0.0.0.0', port: 0, token: 's3cret' });
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    const put = (headers: Record<string, string>) =>
      fetch(`${url}/v1/adaptive-routing`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ enabled: true }),
      });
    try {
      expect((await put({})).status).toBe(401);
      expect((await put({ authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await put({ authorization: 'Bearer s3cret' })).status).toBe(200);
      expect((await fetch(`${url}/v1/ports`)).status).toBe(200);
    } finally {
      await server.close();
    }
    const open = await startEmulatorServer(emulator, { host: '0.0.0.0', port: 0 });
    try {
      const answer = await fetch(`${open.url.replace('0.0.0.0', '127.0.0.1')}/v1/flows`, {
        method: 'DELETE',
      });
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as { error: string }).error).toMatch(/no token/);
    } finally {
      await open.close();
    }
  });
});

describe('emulator HTTP server from Date.now()', () => {
  it('brings an emulator built a while ago up to the wall clock, so its readings are not stamped in the past', async () => {
    const builtAtMs = Date.now() - 5000; // as if building the fabric took 5 s
    const fabric = buildScenario('ar-demo');
    const built = () => createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: builtAtMs });
    const lagging = await startEmulatorServer(built(), { clock: () => 0 });
    const following = await startEmulatorServer(built(), { clock: () => 0, fromDateNow: true });
    try {
      const before = Date.now();
      const health = async (server: EmulatorServer) =>
        ((await (await fetch(`${server.url}/v1/health`)).json()) as { timeMs: number }).timeMs;
      expect(await health(lagging)).toBe(builtAtMs);
      const followed = await health(following);
      expect(followed).toBeGreaterThan(before - 1000);
      expect(followed).toBeLessThanOrEqual(Date.now());
    } finally {
      await lagging.close();
      await following.close();
    }
  });
});
