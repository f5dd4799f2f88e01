import { formatIbnetdiscover } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTopologyChanges,
  buildScenario,
  describeTopologyChange,
  diffFabrics,
  diffTopology,
  type Fabric,
  FabricBuilder,
  fabricOfSnapshot,
  generatedGuid,
  parseTopology,
  summarizeTopologyChanges,
  type TopologySnapshot,
  topologyDrift,
  topologySnapshot,
} from '../../src/index.ts';

/** A node every generated fabric draws from: same name and GUID in each, so two fabrics share nodes. */
interface PoolNode {
  name: string;
  type: 'switch' | 'host';
  guid: string;
  portCount: number;
}
const POOL: PoolNode[] = [
  ...[1, 2, 3, 4].map((i) => ({
    name: `sw${i}`,
    type: 'switch' as const,
    guid: generatedGuid(1, i),
    portCount: 8,
  })),
  ...[1, 2, 3, 4, 5, 6].map((i) => ({
    name: `h${i}`,
    type: 'host' as const,
    guid: generatedGuid(0, i),
    portCount: 2,
  })),
];
const SPEEDS = [
  ['4xEDR', 100],
  ['4xHDR', 200],
  ['1xEDR', 25],
] as const;

const fabricArb = fc
  .record({
    present: fc.array(fc.boolean(), { minLength: POOL.length, maxLength: POOL.length }),
    // Descriptions: the name, none, or one shared by several nodes (identity falls back to GUIDs).
    describe: fc.array(fc.constantFrom('name', 'none', 'shared'), {
      minLength: POOL.length,
      maxLength: POOL.length,
    }),
    lidShift: fc.array(fc.constantFrom(0, 20), { minLength: POOL.length, maxLength: POOL.length }),
    cables: fc.array(
      fc.record({
        a: fc.nat(POOL.length - 1),
        ap: fc.integer({ min: 1, max: 8 }),
        b: fc.nat(POOL.length - 1),
        bp: fc.integer({ min: 1, max: 8 }),
        speed: fc.nat(SPEEDS.length - 1),
        flip: fc.boolean(),
      }),
      { maxLength: 24 },
    ),
  })
  .map(({ present, describe, lidShift, cables }): Fabric => {
    const builder = new FabricBuilder('generated', 'infiniband');
    const used = new Set<string>();
    POOL.forEach((n, i) => {
      if (!present[i]) return;
      const d = describe[i];
      builder.addNode({
        ...n,
        lid: i + 1 + (lidShift[i] ?? 0),
        ...(d === 'name'
          ? { description: n.name }
          : d === 'shared'
            ? { description: 'MT4123 ConnectX6' }
            : {}),
      });
    });
    for (const c of cables) {
      const a = POOL[c.a] as PoolNode;
      const b = POOL[c.b] as PoolNode;
      if (!builder.node(a.name) || !builder.node(b.name)) continue;
      if (c.ap > a.portCount || c.bp > b.portCount) continue;
      const ka = `${a.name}/${c.ap}`;
      const kb = `${b.name}/${c.bp}`;
      if (ka === kb || used.has(ka) || used.has(kb)) continue;
      used.add(ka);
      used.add(kb);
      const [ws, rate] = SPEEDS[c.speed] as (typeof SPEEDS)[number];
      const [x, xp, y, yp] = c.flip ? [b, c.bp, a, c.ap] : [a, c.ap, b, c.bp];
      builder.connect(x.name, xp, y.name, yp, rate, undefined, { widthSpeed: ws });
    }
    return builder.build();
  });

/** Nodes and cables as comparable text: cable ends in one order, every fact that a change can touch. */
function canonical(s: TopologySnapshot) {
  return {
    nodes: s.nodes
      .map(
        (n) =>
          `${n.id}|${n.name}|${n.type}|${n.guid}|${n.lid}|${n.portCount}|${n.tier}|${n.description ?? ''}`,
      )
      .sort(),
    links: s.links
      .map((l) => {
        const [x, y] = [`${l.a.node}/${l.a.port}`, `${l.b.node}/${l.b.port}`].sort();
        return `${x}--${y}|${l.kind}|${l.rateGbps}|${l.widthSpeed ?? ''}|${l.fabricType ?? ''}`;
      })
      .sort(),
  };
}

/** The same fabric declared otherwise: nodes and cables in reverse order, each cable from its other end. */
function redeclared(f: Fabric): Fabric {
  const b = new FabricBuilder(f.name, f.fabricType);
  for (const n of [...f.nodes].reverse()) {
    b.addNode({
      name: n.name,
      type: n.type,
      guid: n.guid,
      portCount: n.portCount,
      tier: n.tier,
      lid: n.lid,
      ...(n.description !== undefined ? { description: n.description } : {}),
    });
  }
  for (const l of [...f.links].reverse()) {
    b.connect(l.b.node, l.b.port, l.a.node, l.a.port, l.rateGbps, l.kind, {
      ...(l.widthSpeed ? { widthSpeed: l.widthSpeed } : {}),
    });
  }
  return b.build();
}

describe('diffTopology (property)', () => {
  it('a fabric against itself, however declared, has no change', () => {
    fc.assert(
      fc.property(fabricArb, (a) => {
        expect(diffFabrics(a, a)).toEqual([]);
        expect(diffFabrics(a, redeclared(a))).toEqual([]);
        expect(topologyDrift(topologySnapshot(a), topologySnapshot(redeclared(a)))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('the changes applied to a give b: its nodes and its set of cables', () => {
    fc.assert(
      fc.property(fabricArb, fabricArb, (a, b) => {
        const sa = topologySnapshot(a);
        const sb = topologySnapshot(b);
        const changes = diffTopology(sa, sb);
        expect(canonical(applyTopologyChanges(sa, changes))).toEqual(canonical(sb));
        // and the reverse way, and nothing left to change afterwards
        expect(canonical(applyTopologyChanges(sb, diffTopology(sb, sa)))).toEqual(canonical(sa));
        expect(diffTopology(applyTopologyChanges(sa, changes), sb)).toEqual([]);
        // every change is one line for people
        for (const c of changes) expect(describeTopologyChange(c).detail).not.toBe('');
        expect(summarizeTopologyChanges(changes) === 'no change').toBe(changes.length === 0);
      }),
      { numRuns: 400 },
    );
  });

  it('a snapshot turned back into a fabric is the same topology', () => {
    fc.assert(
      fc.property(fabricArb, (a) => {
        const s = topologySnapshot(a);
        expect(diffTopology(s, topologySnapshot(fabricOfSnapshot(s)))).toEqual([]);
        // and survives JSON (what the versions file holds)
        expect(diffTopology(s, JSON.parse(JSON.stringify(s)))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

/** ar-demo with edge1/3's cable moved from core1/1 to core1/5, as a lab's Unlink + Link does. */
function arDemoMoved(): Fabric {
  const design = buildScenario('ar-demo');
  const b = new FabricBuilder(design.name, design.fabricType);
  for (const n of design.nodes) {
    b.addNode({ name: n.name, type: n.type, guid: n.guid, portCount: n.portCount, tier: n.tier, lid: n.lid });
  }
  for (const l of design.links) {
    const moved = l.id === 'edge1/3--core1/1' || l.id === 'core1/1--edge1/3';
    if (moved) b.connect('edge1', 3, 'core1', 5, l.rateGbps, l.kind);
    else b.connect(l.a.node, l.a.port, l.b.node, l.b.port, l.rateGbps, l.kind);
  }
  return b.build();
}

describe('diffTopology (cases)', () => {
  it('a cable moved to another port is one link-moved naming both far ends', () => {
    const design = buildScenario('ar-demo');
    expect(design.links.some((l) => l.id === 'edge1/3--core1/1')).toBe(true);
    const changes = diffFabrics(design, arDemoMoved());
    expect(changes).toHaveLength(1);
    expect(changes[0]?.kind).toBe('link-moved');
    expect(describeTopologyChange(changes[0] as (typeof changes)[number])).toEqual({
      subject: 'edge1/3',
      detail: 'link moved: edge1/3 was cabled to core1/1, now to core1/5',
    });
    expect(summarizeTopologyChanges(changes)).toBe('1 link moved');
  });

  it('a cable pulled is link-removed; a width downgrade is link-rate-changed', () => {
    const b = new FabricBuilder('x', 'infiniband');
    b.addNode({ name: 's', type: 'switch', guid: generatedGuid(1, 1), portCount: 4 });
    b.addNode({ name: 'h', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
    b.addNode({ name: 'g', type: 'host', guid: generatedGuid(0, 2), portCount: 1 });
    b.connect('h', 1, 's', 1, 100, 'host', { widthSpeed: '4xEDR' });
    b.connect('g', 1, 's', 2, 100, 'host', { widthSpeed: '4xEDR' });
    const before = b.build();
    const c = new FabricBuilder('x', 'infiniband');
    c.addNode({ name: 's', type: 'switch', guid: generatedGuid(1, 1), portCount: 4 });
    c.addNode({ name: 'h', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
    c.addNode({ name: 'g', type: 'host', guid: generatedGuid(0, 2), portCount: 1 });
    c.connect('s', 1, 'h', 1, 25, 'host', { widthSpeed: '1x EDR' });
    const after = c.build();
    const changes = diffFabrics(before, after);
    expect(changes.map((x) => x.kind).sort()).toEqual(['link-rate-changed', 'link-removed']);
    expect(changes.map((x) => describeTopologyChange(x).detail).sort()).toEqual([
      'link removed',
      'link speed changed: 4xEDR → 1x EDR',
    ]);
    expect(summarizeTopologyChanges(changes)).toBe('1 link removed, 1 link changed speed');
  });

  it('nodes are known by NodeDescription, not by the dump’s S-/H- ids or LIDs', () => {
    const design = buildScenario('ar-demo');
    // An ibnetdiscover dump names nodes S-<guid>/H-<guid>; its descriptions are the scenario's names.
    const dump = parseTopology(formatIbnetdiscover(design));
    expect(dump.nodes.some((n) => n.name.startsWith('S-'))).toBe(true);
    // Same nodes and cables; only facts the dump tells otherwise (names, tiers) are node changes.
    expect(diffFabrics(design, dump).filter((c) => c.kind !== 'node-changed')).toEqual([]);
    expect(topologyDrift(topologySnapshot(design), topologySnapshot(dump))).toEqual([]);
  });
});

describe('topologyDrift', () => {
  it('an ibsim net as the design: w=/s=/e= are the enabled masks ibsim negotiates with', () => {
    const net = parseTopology(
      [
        'Switch 8 "s1"',
        '[1] "h1"[1] w=2 s=4 e=2',
        '[2] "h2"[1] w=1 s=4',
        '',
        'Hca 1 "h1"',
        '[1] "s1"[1] w=2 s=4 e=2',
        '',
        'Hca 1 "h2"',
        '[1] "s1"[2] w=1 s=4',
        '',
      ].join('\n'),
    );
    expect(net.links.map((l) => [l.id, l.widthSpeed, l.rateGbps])).toEqual([
      ['h1/1--s1/1', '4xEDR', 100],
      ['h2/1--s1/2', '1xQDR', 10],
    ]);
  });

  it('a cable moved is one miswired finding naming the port, where it should go and where it goes', () => {
    const findings = topologyDrift(
      topologySnapshot(buildScenario('ar-demo')),
      topologySnapshot(arDemoMoved()),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'miswired',
      subject: 'edge1/3',
      detail: 'miswired: edge1/3 should be cabled to core1/1, is cabled to core1/5',
      expected: { a: { node: 'edge1', port: 3 }, b: { node: 'core1', port: 1 } },
      actual: { a: { node: 'edge1', port: 3 }, b: { node: 'core1', port: 5 } },
    });
  });

  it('missing, extra and wrong-rate cables, missing and extra nodes', () => {
    const design = new FabricBuilder('d', 'infiniband');
    design.addNode({ name: 's', type: 'switch', guid: generatedGuid(1, 1), portCount: 8 });
    for (const h of ['h1', 'h2', 'h3']) {
      design.addNode({ name: h, type: 'host', guid: generatedGuid(0, Number(h[1])), portCount: 1 });
    }
    design.connect('h1', 1, 's', 1, 100, 'host', { widthSpeed: '4xEDR' });
    design.connect('h2', 1, 's', 2, 100, 'host', { widthSpeed: '4xEDR' });
    design.connect('h3', 1, 's', 3, 100, 'host', { widthSpeed: '4xEDR' });
    const found = new FabricBuilder('f', 'infiniband');
    found.addNode({ name: 's', type: 'switch', guid: generatedGuid(1, 9), portCount: 8 });
    found.addNode({ name: 'h1', type: 'host', guid: generatedGuid(0, 1), portCount: 1 });
    found.addNode({ name: 'h2', type: 'host', guid: generatedGuid(0, 2), portCount: 1 });
    found.addNode({ name: 'x', type: 'host', guid: generatedGuid(0, 7), portCount: 1 });
    found.connect('h1', 1, 's', 1, 50, 'host', { widthSpeed: '2xEDR' });
    found.connect('x', 1, 's', 7, 100, 'host', { widthSpeed: '4xEDR' });
    const findings = topologyDrift(topologySnapshot(design.build()), topologySnapshot(found.build()));
    expect(findings.map((f) => `${f.kind} ${f.subject}`).sort()).toEqual([
      'extra-link x/1--s/7',
      'extra-node x',
      'missing-link h2/1--s/2',
      'missing-link h3/1--s/3',
      'missing-node h3',
      'wrong-rate h1/1--s/1',
    ]);
    expect(findings.find((f) => f.kind === 'wrong-rate')?.detail).toBe(
      'wrong speed or width: h1/1--s/1 is 2xEDR, designed 4xEDR',
    );
  });
});
