import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

// A site's one command, run as a site runs it — `FABSCOPE_FABRIC=infiniband fabscope serve` — under
// the lab's preload (what `ibsim-run` does), so the process reads the simulated subnet as hardware.
describe('FABSCOPE_FABRIC=infiniband fabscope serve on a live subnet', () => {
  let lab: Lab;
  let serve: ServeOnLab;
  let url = '';
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (path: string): Promise<any> => (await fetch(`${url}/api/v1${path}`)).json();

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(buildScenario('ar-demo')),
      routing: 'minhop',
      sockName: `serve-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    serve = await startServeOnLab(lab, { FABSCOPE_DISCOVER_INTERVAL_MS: '2000' }, 40_000);
    url = serve.url;
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await lab?.stop();
  });

  it('discovers the subnet (names are NodeDescriptions) and reads every port, hosts included', async () => {
    const topology = await get('/topology');
    expect(topology.nodes.map((n: { name: string }) => n.name).sort()).toEqual([
      'core1',
      'core2',
      'edge1',
      'edge2',
      'nodeA',
      'nodeB',
      'nodeC',
      'nodeD',
    ]);
    expect(topology.links).toHaveLength(8);
    await eventually(async () => {
      const summary = await get('/summary');
      expect(summary.portsWithoutData).toBe(0);
      expect(summary.hostTransmitBytesPerSecond).not.toBeNull();
    }, 20_000);
    expect(serve.stderr()).not.toMatch(/error/i);
  });

  it('routes with the subnet manager’s tables, read from the switches', async () => {
    const route = await eventually(async () => {
      const r = await get('/route?from=nodeA&to=nodeD');
      expect(r.tables?.source).toBe('sm');
      return r;
    }, 40_000);
    expect(route.tables.from).toBe('dump_fts');
    expect(route.hops.map((h: { node: string }) => h.node)).toEqual(
      expect.arrayContaining(['nodeA', 'edge1', 'edge2', 'nodeD']),
    );
  }, 60_000);

  it('says adaptive routing is not there', async () => {
    expect(await get('/adaptive-routing')).toMatchObject({
      available: false,
      reason: 'upstream OpenSM has no adaptive routing',
    });
  });

  it('draws a cable plugged into two free ports without a restart, measures it, and keeps the past in its own topology', async () => {
    const before = new Date().toISOString();
    expect((await get('/topology')).version).toBeUndefined();
    const ids = (links: { id: string }[]) => links.map((l) => l.id);
    await lab.link({ node: 'edge1', port: 10 }, { node: 'core1', port: 10 });
    const topology = await eventually(async () => {
      const t = await get('/topology');
      expect(t.links).toHaveLength(9);
      return t;
    }, 40_000);
    expect(topology.version).toBe(1);
    const added = topology.links.find(
      (l: { id: string }) => l.id === 'edge1/10--core1/10' || l.id === 'core1/10--edge1/10',
    );
    expect(added).toBeDefined();
    // The first eight keep their order: the channels drawn before are where they were.
    expect(topology.links.slice(0, 8).map((l: { id: string }) => l.id)).not.toContain(added.id);
    const [end1, end2] = (added.id as string).split('--');
    const directions = [`${end1}->${end2}`, `${end2}->${end1}`];
    expect((await get('/health')).topologyVersion).toBe(1);
    // Measured: both directions up, with data, once the collector has read the new ports.
    await eventually(async () => {
      const { links } = await get('/links?limit=5000');
      const found = links.filter((l: { id: string }) => directions.includes(l.id));
      expect(found).toHaveLength(2);
      for (const l of found) {
        expect(l.linkUp).toBe(true);
        expect(l.bytesPerSecond).not.toBeNull();
      }
    }, 40_000);
    // An instant before the cable: the topology of its time, without the new directions.
    const past = await get(`/links?time=${encodeURIComponent(before)}&limit=5000`);
    expect(past.links).toHaveLength(16);
    expect(ids(past.links)).not.toContain(directions[0]);
    const events = await get(`/events?from=${encodeURIComponent(before)}`);
    expect(
      events.events.some((e: { detail: string }) =>
        /drawing the fabric as discovered \(version 1\)/.test(e.detail),
      ),
    ).toBe(true);
    // Routes still come from the subnet manager's tables, read again for the grown fabric.
    const route = await get('/route?from=nodeA&to=nodeD');
    expect(route.tables.source).toBe('sm');
  }, 90_000);
});
