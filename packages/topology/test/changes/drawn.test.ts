import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildScenario,
  diffTopology,
  drawnTopology,
  linkKey,
  type TopologyLinkRecord,
  type TopologySnapshot,
  topologySnapshot,
} from '../../src/index.ts';

const base = topologySnapshot(buildScenario('ar-demo'));
const ends = (l: TopologyLinkRecord) => [`${l.a.node}/${l.a.port}`, `${l.b.node}/${l.b.port}`];

/** A rediscovery of `base`: some cables gone, some moved to free ports, some new, some re-rated. */
const rediscovered = fc
  .record({
    gone: fc.array(fc.boolean(), { minLength: base.links.length, maxLength: base.links.length }),
    rerated: fc.array(fc.boolean(), { minLength: base.links.length, maxLength: base.links.length }),
    added: fc.array(
      fc.record({
        a: fc.constantFrom(...base.nodes.map((n) => n.id)),
        b: fc.constantFrom(...base.nodes.map((n) => n.id)),
        aPort: fc.integer({ min: 1, max: 40 }),
        bPort: fc.integer({ min: 1, max: 40 }),
      }),
      { maxLength: 6 },
    ),
  })
  .map(({ gone, rerated, added }): TopologySnapshot => {
    const links = base.links
      .filter((_, i) => !gone[i])
      .map((l, i) => (rerated[i] ? { ...l, rateGbps: l.rateGbps / 2, widthSpeed: undefined } : l))
      .map(({ widthSpeed, ...l }) => (widthSpeed === undefined ? l : { ...l, widthSpeed }));
    const used = new Set(links.flatMap(ends));
    for (const x of added) {
      const link: TopologyLinkRecord = {
        a: { node: x.a, port: x.aPort },
        b: { node: x.b, port: x.bPort },
        kind: 'isl',
        rateGbps: 100,
      };
      const [ea, eb] = ends(link);
      if (x.a === x.b || used.has(ea as string) || used.has(eb as string)) continue;
      used.add(ea as string);
      used.add(eb as string);
      links.push(link);
    }
    return { ...base, links };
  });

describe('the drawn topology keeps what was seen and adds what is new', () => {
  it('holds every cable found now, keeps the gone ones whose ports are free, cables no port twice', () => {
    fc.assert(
      fc.property(rediscovered, (newest) => {
        const drawn = drawnTopology(base, newest) ?? base;
        const keys = new Set(drawn.links.map(linkKey));
        for (const l of newest.links) expect(keys.has(linkKey(l))).toBe(true);
        const cabledNow = new Set(newest.links.flatMap(ends));
        for (const l of base.links) {
          const free = ends(l).every((e) => !cabledNow.has(e));
          if (free) expect(keys.has(linkKey(l))).toBe(true);
        }
        const portEnds = drawn.links.flatMap(ends);
        expect(new Set(portEnds).size).toBe(portEnds.length);
        // The cables already drawn come first, in their order.
        const before = new Set(base.links.map(linkKey));
        const order = drawn.links.map(linkKey);
        const firstNew = order.findIndex((k) => !before.has(k));
        if (firstNew >= 0) expect(order.slice(firstNew).every((k) => !before.has(k))).toBe(true);
        const baseOrder = base.links.map(linkKey).filter((k) => keys.has(k));
        expect(order.slice(0, baseOrder.length)).toEqual(baseOrder);
        // Drawing the same discovery again adds nothing.
        expect(drawnTopology(drawn, newest)).toBeNull();
      }),
    );
  });

  it('a pulled cable stays drawn, and adds nothing to redraw', () => {
    const pulled = { ...base, links: base.links.slice(1) };
    expect(drawnTopology(base, pulled)).toBeNull();
  });

  it('a cable moved to a free port is drawn at its new port only, after the others', () => {
    const moved = base.links[0] as TopologyLinkRecord;
    const to = { ...moved, b: { node: moved.b.node, port: 40 } };
    const drawn = drawnTopology(base, { ...base, links: [...base.links.slice(1), to] }) as TopologySnapshot;
    expect(drawn.links.at(-1)).toEqual(to);
    expect(drawn.links.map(linkKey)).not.toContain(linkKey(moved));
    expect(diffTopology(base, drawn).map((c) => c.kind)).toEqual(['link-moved']);
  });
});
