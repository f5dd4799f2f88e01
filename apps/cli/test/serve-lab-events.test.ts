import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type ServeOnLab, startServeOnLab } from './serve-on-lab.ts';

const fabric = buildScenario('ar-demo');
/** edge2's cables: its two hosts and its two cores. */
const cables = fabric.links
  .map((l) => (l.a.node === 'edge2' ? [l.a, l.b] : l.b.node === 'edge2' ? [l.b, l.a] : null))
  .filter((c): c is [(typeof fabric.links)[number]['a'], (typeof fabric.links)[number]['a']] => c !== null);

interface EventRow {
  time: string;
  kind: string;
  subject: string;
  detail: string;
}

interface PortRow {
  port: number;
  linkUp: boolean | null;
  physicalState: string | null;
}

// Events a site can trust (issue 40), on the lab read by `fabscope serve` as a site runs it.
describe('fabscope serve on a live subnet: link states and counter steps', () => {
  let lab: Lab;
  let serve: ServeOnLab;
  const events = async (fromMs: number): Promise<EventRow[]> =>
    (
      (await (await fetch(`${serve.url}/api/v1/events?from=${fromMs / 1000}&limit=5000`)).json()) as {
        events: EventRow[];
      }
    ).events;

  const portsOf = async (node: string): Promise<PortRow[]> =>
    ((await (await fetch(`${serve.url}/api/v1/port?node=${node}`)).json()) as { ports: PortRow[] }).ports;

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(fabric),
      routing: 'minhop',
      sockName: `relink-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    serve = await startServeOnLab(lab, { FABSCOPE_DISCOVER_INTERVAL_MS: '2000' }, 40_000);
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await lab?.stop();
  });

  it('a packet counter stepped by 2^60 reads a gap, never 1e18 packets/s', async () => {
    const id = 'edge1/1->nodeA/1';
    const seen: (number | null)[] = [];
    const packets = async () => {
      const links = (await (await fetch(`${serve.url}/api/v1/links?limit=1000`)).json()) as {
        links: { id: string; packetsPerSecond: number | null }[];
      };
      return links.links.find((l) => l.id === id)?.packetsPerSecond ?? null;
    };
    await lab.performanceSet('edge1', 1, 'PortCountersExtended.PortXmitPkts', 2n ** 60n);
    const until = Date.now() + 8000;
    while (Date.now() < until) {
      seen.push(await packets());
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen.length).toBeGreaterThan(10);
    for (const value of seen) if (value !== null) expect(value).toBeLessThan(1e10);
  }, 30_000);

  // A whole switch unlinked and relinked: its host links used to get `link down` and never `link up`.
  it('a switch unlinked and relinked gives a link up for every link down', async () => {
    expect(cables).toHaveLength(4);
    // Each port's page reads its PortInfo physical state: LinkUp while cabled, the true state once pulled.
    await eventually(async () => {
      const ports = await portsOf('edge2');
      expect(ports.map((p) => [p.port, p.linkUp, p.physicalState])).toEqual(
        cables.map(([near]) => [near.port, true, 'LinkUp']),
      );
    }, 20_000);
    const startedMs = Date.now();
    for (const [near] of cables) await lab.unlink(near.node, near.port);
    const gone = new Promise((resolve) => setTimeout(resolve, 6000));
    await eventually(async () => {
      // The cores' ends: a host's only cable was edge2's, so it is unreachable (its state unknown, not read).
      for (const [, far] of cables.filter(([, f]) => fabric.nodeByName.get(f.node)?.type === 'switch')) {
        const port = (await portsOf(far.node)).find((p) => p.port === far.port);
        expect([far.node, far.port, port?.linkUp, port?.physicalState]).toEqual([
          far.node,
          far.port,
          false,
          'Polling',
        ]);
      }
    }, 20_000);
    await eventually(async () => {
      const down = (await events(startedMs - 1000)).filter(
        (e) => e.kind === 'link-state' && e.detail.startsWith('link down'),
      );
      expect(down.length).toBeGreaterThan(0);
    }, 30_000);
    // Gone long enough for the collector to find its ports unreachable.
    await gone;
    for (const [near, far] of cables) await lab.link(near, far);
    await eventually(async () => {
      const perLink = new Map<string, string[]>();
      for (const e of await events(startedMs - 1000))
        if (e.kind === 'link-state')
          perLink.set(e.subject, [...(perLink.get(e.subject) ?? []), e.detail.split(' (')[0] as string]);
      expect(perLink.size).toBeGreaterThan(0);
      for (const [link, details] of perLink) expect(details, link).toEqual(['link down', 'link up']);
    }, 60_000);
  }, 150_000);
});
