import { buildScenario, fatTreeRouting, linkDataBytesPerSecond } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/index.ts';

const fabric = buildScenario('roce-leafspine');
const HOSTS = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
const capacityOf = new Map<string, number>(
  fabric.links.flatMap((l) => {
    const bytes = linkDataBytesPerSecond(l, 'ethernet');
    return [
      [`${l.a.node}/${l.a.port}->${l.b.node}/${l.b.port}`, bytes],
      [`${l.b.node}/${l.b.port}->${l.a.node}/${l.a.port}`, bytes],
    ] as const;
  }),
);

/**
 * Random traffic: pairs of distinct hosts, some RDMA and some IP, some with a demand below line rate. Half the
 * destinations are among four hosts, so most runs hold an incast and the pause checks below run in most runs.
 */
const traffic = fc.array(
  fc.record({
    from: fc.integer({ min: 0, max: HOSTS.length - 1 }),
    to: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: HOSTS.length - 1 })),
    transport: fc.constantFrom('rdma', 'ip'),
    demandGbps: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
  }),
  { minLength: 1, maxLength: 48 },
);

describe('lossless Ethernet conservation (property)', () => {
  it('no link carries more than its line rate, and pause stands only where a buffer downstream is full', () => {
    let runsWithPause = 0;
    fc.assert(
      fc.property(traffic, (items) => {
        const e = createEmulator({ fabric, tables: fatTreeRouting(fabric), seed: 1 });
        const wanted = items.filter((i) => i.from !== i.to);
        for (const i of wanted) {
          e.startFlows({
            pattern: 'pairs',
            pairs: [[HOSTS[i.from] as string, HOSTS[i.to] as string]],
            transport: i.transport as 'rdma' | 'ip',
            ...(i.demandGbps === undefined ? {} : { demand: `${i.demandGbps}Gb/s` }),
          });
        }
        e.advance(1000);
        const flows = e.listFlows();
        const carried = new Map<string, number>();
        for (const f of flows)
          for (const hop of f.path) carried.set(hop, (carried.get(hop) ?? 0) + f.bytesPerSecond);
        for (const [hop, bytes] of carried)
          expect(bytes).toBeLessThanOrEqual((capacityOf.get(hop) as number) * (1 + 1e-9));
        const { full, paused } = e.losslessCongestion();
        if (paused.length > 0) runsWithPause++;
        const fullSet = new Set(full.map((f) => f.link));
        const pausedSet = new Set(paused.map((p) => p.link));
        // Every paused direction feeds, on some flow's path, a full buffer or a direction paused in turn,
        // and the buffer it is paused for is full.
        for (const { link, share, pausedFor } of paused) {
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(1);
          expect(fullSet.has(pausedFor)).toBe(true);
          const feeds = flows.some((f) => {
            const next = f.path[f.path.indexOf(link) + 1];
            return f.path.includes(link) && next !== undefined && (fullSet.has(next) || pausedSet.has(next));
          });
          expect(feeds, `${link} is paused with nothing full downstream`).toBe(true);
        }
        // A port counts pause only where it is paused; a full buffer is never a sender's own port.
        for (const p of e.ethernetPortCounters()) {
          if (p.rxPauseMicroseconds === 0n) continue;
          expect(paused.some((q) => q.link.startsWith(`${p.nodeName}/${p.portNumber}->`))).toBe(true);
        }
        for (const { link } of full)
          expect(fabric.nodeByName.get(link.split('/')[0] as string)?.type).toBe('switch');
        const victims = flows.filter((f) => f.victimOf !== undefined);
        // A victim crosses no full buffer and is slowed below its demand.
        for (const v of victims) expect(v.path).not.toContain(v.victimOf);
      }),
      { numRuns: 40 },
    );
    // The traffic is dense enough that most runs congest somewhere: the checks above were exercised.
    expect(runsWithPause).toBeGreaterThan(10);
  });
});
