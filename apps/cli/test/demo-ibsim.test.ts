import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { configFromEnv } from '@fabscope/api';
import { parsePerfquery } from '@fabscope/collectors';
import { FabricBuilder, generatedGuid, parsePortsReportLines } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIbsimDemo, startIbsimDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

const run = promisify(execFile);

interface LinkState {
  id: string;
  linkId: string;
  utilization: number | null;
  bytesPerSecond: number | null;
  transmitWaitFraction: number | null;
  linkUp: boolean | null;
  stale: boolean;
  capacityBytesPerSecond: number;
}

/** How often the lab's counters are written from the emulator's traffic. */
const PUMP_INTERVAL_MS = 20;

// The demo on a real InfiniBand subnet: ibsim + OpenSM (ftree) shaped as ar-demo, read only with
// ibnetdiscover and MADs; the emulator is its traffic source (its flows follow OpenSM's tables).
describe('demo:ibsim on ar-demo under OpenSM ftree', () => {
  let demo: RunningIbsimDemo;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const api = async (path: string, init?: RequestInit): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${demo.apiUrl}/api/v1${path}`, init);
    return { status: response.status, body: await response.json() };
  };
  const post = (path: string, body: unknown, method = 'POST') =>
    api(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const links = async () => (await api('/links?limit=1000')).body.links as LinkState[];
  const direction = async (id: string) => (await links()).find((l) => l.id === id) as LinkState;
  const tool = async (cmd: string, ...args: string[]) =>
    (await run(cmd, args, { env: { ...process.env, ...demo.lab.env }, cwd: demo.lab.cwd })).stdout;
  /** The discovered link between two ports, whichever end discovery named first. */
  const linkId = (a: string, b: string) =>
    demo.fabric.links.find(
      (l) => [`${l.a.node}/${l.a.port}`, `${l.b.node}/${l.b.port}`].sort().join() === [a, b].sort().join(),
    )?.id as string;

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startIbsimDemo({ config, routing: 'ftree', pumpIntervalMs: PUMP_INTERVAL_MS });
    await eventually(async () => expect((await api('/health')).body.status).toBe('ok'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
  });

  it('names every node by its NodeDescription and has data for every host port', async () => {
    const names = (await api('/topology')).body.nodes.map((n: { name: string }) => n.name).sort();
    expect(names).toEqual(['core1', 'core2', 'edge1', 'edge2', 'nodeA', 'nodeB', 'nodeC', 'nodeD']);
    await eventually(async () => {
      const summary = (await api('/summary')).body;
      expect(summary.portsWithoutData).toBe(0);
      expect(summary.staleLinks).toBe(0);
    });
  });

  it('shows the seed pairs as the subnet counts them: utilization from the counters written, host total as the emulator’s', async () => {
    const started = await post('/traffic', {
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    });
    expect(started.status).toBe(200);
    const flows = started.body.flows as { path: string[]; bytesPerSecond: number }[];
    // Their paths are OpenSM's: the emulator follows the subnet manager's tables.
    const route = (await api('/route?from=nodeA&to=nodeC')).body;
    expect(route.hops.map((h: { link?: string }) => h.link).filter(Boolean)).toEqual(flows[0]?.path);
    const emulatorTotal = flows.reduce((sum, f) => sum + f.bytesPerSecond, 0);
    await eventually(async () => {
      const host = (await api('/summary')).body.hostTransmitBytesPerSecond as number;
      expect(Math.abs(host / emulatorTotal - 1)).toBeLessThan(0.01);
    }, 20_000);
    // Each ISL direction's utilization is the rate its sending port's counters rose at, over its
    // data rate (12.5 GB/s at 4x EDR): a shared ISL full, one no flow crosses idle. The lab writes
    // the counters in steps and the rate is per sampling interval: one interval may hold one write
    // more or less than its length says (see the perfquery comparison below), within a write's
    // share of the interval (2 % at 1 s) and float rounding.
    const { intervalMs } = (await api('/health')).body as { intervalMs: number };
    const writeShare = PUMP_INTERVAL_MS / intervalMs + 0.002;
    const onPaths = new Set(flows.flatMap((f) => f.path));
    // Judged on one answer, retried while the loaded machine stalls a sweep (a stale interval reads unknown).
    await eventually(async () => {
      const isl = (await links()).filter((l) => /^(edge|core)/.test(l.id) && /->(edge|core)/.test(l.id));
      expect(isl).toHaveLength(8);
      for (const l of isl) {
        expect(l.capacityBytesPerSecond).toBe(12.5e9);
        const expected = onPaths.has(l.id)
          ? flows.filter((f) => f.path.includes(l.id)).length > 1
            ? 1
            : 0.992
          : 0;
        expect(l.utilization).not.toBeNull();
        if (expected === 0) expect(l.utilization).toBeLessThanOrEqual(0.05);
        else expect(Math.abs((l.utilization as number) - expected), l.id).toBeLessThan(writeShare);
      }
      if (
        flows[0]?.path.some((c) => flows[1]?.path.includes(c) && /^(edge|core)\d\/\d+->(edge|core)/.test(c))
      ) {
        const shared = isl.find((l) => flows.every((f) => f.path.includes(l.id)));
        expect(shared?.utilization).toBeGreaterThanOrEqual(0.95);
      }
    }, 15_000);
  }, 60_000);

  it('reads the busiest ISL direction at the rate real perfquery -x sees over 5 s', async () => {
    const busiest = (await links())
      .filter((l) => /^(edge|core)\d\/\d+->(edge|core)/.test(l.id))
      .sort((a, b) => (b.bytesPerSecond ?? 0) - (a.bytesPerSecond ?? 0))[0] as LinkState;
    const [node, port] = (busiest.id.split('->')[0] as string).split('/') as [string, string];
    const lid = demo.fabric.nodeByName.get(node)?.lid as number;
    // perfquery reads the counters the subnet holds; they stand for the time they were written (the
    // lab's switches count nothing by themselves between two writes), so each read is made right
    // after a write, none meanwhile, and timed by it.
    const read = async () => {
      const { value, atMs } = await demo.readSubnet(async () =>
        parsePerfquery(await tool('perfquery', '-x', String(lid), port)),
      );
      return { bytes: Number(value[0]?.transmitBytes), at: atMs };
    };
    // The API's rate is per sampling interval, between two reads of counters the lab writes in
    // steps: one interval may hold one write more or less than its length says. Over the same 5 s
    // its intervals' rates average out (their counter rises add up), as perfquery's two reads do:
    // the API is polled until it has answered five intervals.
    const apiRates = new Map<string, number>();
    const first = await read();
    await eventually(
      async () => {
        const { body } = await api('/links?limit=1000');
        const state = (body.links as LinkState[]).find((l) => l.id === busiest.id);
        if (state?.bytesPerSecond != null) apiRates.set(body.time as string, state.bytesPerSecond);
        expect(apiRates.size).toBeGreaterThanOrEqual(5);
      },
      12_000,
      200,
    );
    const second = await read();
    const perfqueryRate = (second.bytes - first.bytes) / ((second.at - first.at) / 1000);
    const apiRate = [...apiRates.values()].reduce((a, b) => a + b, 0) / apiRates.size;
    expect(Math.abs(apiRate / perfqueryRate - 1)).toBeLessThan(0.02);
  }, 20_000);

  it('refuses adaptive routing with the reason: upstream OpenSM has none', async () => {
    const ar = await api('/adaptive-routing');
    expect(ar.body).toMatchObject({ available: false, reason: expect.stringMatching(/OpenSM/) });
    const put = await post('/adaptive-routing', { enabled: true }, 'PUT');
    expect(put.status).toBe(409);
    expect(put.body.message).toMatch(/upstream OpenSM has no adaptive routing/);
  });

  it('a link-down fault unplugs the cable: gone from ibnetdiscover, down in the API with an event; repair brings it back', async () => {
    const id = linkId('edge1/3', 'core1/1');
    const before = new Date(Date.now() - 1000).toISOString();
    expect((await post('/faults', { type: 'link-down', link: id })).status).toBe(200);
    await eventually(async () => {
      const cable = parsePortsReportLines(await tool('ibnetdiscover', '-p')).find(
        (l) => l.local.name === 'edge1' && l.local.port === 3,
      );
      expect(cable?.remote ?? null).toBeNull();
    }, 10_000);
    await eventually(async () => {
      for (const d of (await links()).filter((l) => l.linkId === id)) {
        expect(d.linkUp).toBe(false);
        expect(d.stale).toBe(false);
      }
    }, 10_000);
    expect((await api('/faults', { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => {
      for (const d of (await links()).filter((l) => l.linkId === id)) expect(d.linkUp).toBe(true);
    }, 20_000);
    await eventually(async () => {
      const events = (await api(`/events?from=${encodeURIComponent(before)}`)).body.events as {
        kind: string;
        subject: string;
        detail: string;
      }[];
      const seen = events.filter((e) => e.kind === 'link-state' && e.subject === id).map((e) => e.detail);
      // Both asked from the Faults tab: the cable pulled and its repair are fabscope's doing.
      expect(seen[0]).toBe('link down (link-down through fabscope)');
      expect(seen.at(-1)).toBe('link up (repair everything through fabscope)');
    }, 10_000);
  }, 60_000);

  it('symbol errors at 1000/s on a port top the integrity ranking within two sweeps, with an event', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    expect(
      (await post('/faults', { type: 'symbol-errors', node: 'edge2', port: 4, rate: 1000 })).status,
    ).toBe(200);
    await eventually(async () => {
      const [top] = (await api('/links?sort=integrity&limit=1')).body.links as (LinkState & {
        categories?: { integrity?: number | null };
      })[];
      expect(top?.id.startsWith('edge2/4->') || top?.id.endsWith('->edge2/4')).toBe(true);
      expect(top?.categories?.integrity).toBeGreaterThanOrEqual(1);
    }, 10_000);
    await eventually(async () => {
      const events = (await api(`/events?from=${encodeURIComponent(before)}`)).body.events as {
        kind: string;
        subject: string;
        detail: string;
      }[];
      expect(
        events.some(
          (e) => e.kind === 'threshold' && e.subject.includes('edge2/4') && /^integrity /.test(e.detail),
        ),
      ).toBe(true);
    }, 10_000);
    expect((await api('/faults', { method: 'DELETE' })).status).toBe(200);
  }, 30_000);

  it('XmitWait written into the subnet shows as a wait fraction', async () => {
    // 1e8 ticks/s of 4 bytes at 12.5 GB/s: 3.2 % of the time waiting.
    const nodeD = demo.fabric.nodeByName.get('nodeD');
    expect(nodeD).toBeDefined();
    const started = Date.now();
    const write = async () => {
      const ticks = Math.round(((Date.now() - started) / 1000) * 1e8);
      await demo.lab.performanceSet('nodeD', 1, 'PortCounters.PortXmitWait', ticks);
    };
    const timer = setInterval(() => void write(), 50);
    try {
      await eventually(async () => {
        const d = await direction('nodeD/1->edge2/2');
        expect(d.transmitWaitFraction).not.toBeNull();
        expect(Math.abs((d.transmitWaitFraction as number) - 0.032)).toBeLessThan(0.004);
      }, 15_000);
    } finally {
      clearInterval(timer);
    }
  }, 30_000);
});

describe('demo:ibsim on a 4x SDR subnet', () => {
  let demo: RunningIbsimDemo;
  afterAll(async () => {
    await demo?.stop();
  });

  it('a host sending at the link’s full data rate (1 GB/s after 8b/10b) reads utilization 0.99–1.00', async () => {
    const b = new FabricBuilder('sdr', 'infiniband');
    b.addNode({ name: 'sw', type: 'switch', guid: generatedGuid(1, 0), portCount: 8, tier: 1 });
    b.addNode({ name: 'h1', type: 'host', guid: generatedGuid(0, 0), portCount: 1 });
    b.addNode({ name: 'h2', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
    b.connect('h1', 1, 'sw', 1, 10, 'host', { widthSpeed: '4xSDR' });
    b.connect('h2', 1, 'sw', 2, 10, 'host', { widthSpeed: '4xSDR' });
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startIbsimDemo({
      config,
      routing: 'minhop',
      design: b.build(),
      pumpIntervalMs: PUMP_INTERVAL_MS,
    });
    const post = await fetch(`${demo.apiUrl}/api/v1/traffic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'pairs', pairs: [['h1', 'h2']] }),
    });
    expect(post.status).toBe(200);
    await eventually(async () => {
      const { links } = (await (await fetch(`${demo.apiUrl}/api/v1/links?limit=10`)).json()) as {
        links: LinkState[];
      };
      const sending = links.find((l) => l.id === 'h1/1->sw/1') as LinkState;
      expect(sending.capacityBytesPerSecond).toBe(1e9);
      expect(sending.utilization).toBeGreaterThanOrEqual(0.99);
      expect(sending.utilization).toBeLessThanOrEqual(1);
    }, 20_000);
  }, 60_000);
});
