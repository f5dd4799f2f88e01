import { naturalCompare } from '@fabscope/contracts/names';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScenario, type Fabric, type FindMatch, findIndex, findInFabric } from '../../src/index.ts';

const RANK_ORDER = { exact: 0, prefix: 1, substring: 2 } as const;

/** The plain reading of the rules, node by node: what Find must count for a query without `/` or `0x`. */
function reference(fabric: Fabric, query: string): Map<string, number> {
  const q = query.trim().toLowerCase();
  const found = new Map<string, number>();
  for (const node of fabric.nodes) {
    const texts = [node.name, node.guid, ...(node.description ? [node.description] : [])];
    if (/^\d+$/.test(q) && node.lid > 0) texts.push(String(node.lid));
    let best = 3;
    for (const text of texts.map((t) => t.toLowerCase())) {
      const rank = text === q ? 0 : text.startsWith(q) ? 1 : text.includes(q) ? 2 : 3;
      best = Math.min(best, rank);
    }
    if (best < 3) found.set(node.name, best);
  }
  return found;
}

/** A query cut out of a name, description or GUID the fabric has, its letters' case flipped at random. */
const queryOf = (fabric: Fabric) =>
  fc
    .record({
      node: fc.constantFrom(...fabric.nodes),
      field: fc.constantFrom('name', 'guid', 'description'),
      from: fc.nat(20),
      length: fc.integer({ min: 1, max: 8 }),
      upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    })
    .map(({ node, field, from, length, upper }) => {
      const text =
        (field === 'guid' ? node.guid : field === 'description' ? node.description : '') || node.name;
      const start = Math.min(from, text.length - 1);
      const cut = text.slice(start, start + length);
      return [...cut].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
    })
    .filter((q) => q.trim() !== '' && !q.includes('/') && !q.toLowerCase().startsWith('0x'));

function checkAnswer(fabric: Fabric, query: string, limit: number) {
  const { matches, total } = findInFabric(fabric, query, limit);
  const expected = reference(fabric, query);
  expect(total).toBe(expected.size);
  expect(matches.length).toBe(Math.min(limit, total));
  for (const m of matches) expect(RANK_ORDER[m.rank]).toBe(expected.get(m.target));
  // Ranked exact > prefix > substring, natural order within a rank, the best `limit` of them.
  const want = [...expected]
    .sort(([a, ra], [b, rb]) => ra - rb || naturalCompare(a, b))
    .slice(0, limit)
    .map(([name]) => name);
  expect(matches.map((m: FindMatch) => m.target)).toEqual(want);
  const q = query.trim().toLowerCase();
  for (const m of matches) expect(m.text.toLowerCase()).toContain(q);
}

describe('Find: prefix, substring and case-insensitive over names, descriptions, GUIDs and LIDs', () => {
  const demo = buildScenario('ar-demo');
  const tree = buildScenario('fat-tree-1152');

  it('offers nodeA–nodeD for "nod" and nodeA first for "NODEA"', () => {
    expect(findInFabric(demo, 'nod', 10).matches.map((m) => m.target)).toEqual([
      'nodeA',
      'nodeB',
      'nodeC',
      'nodeD',
    ]);
    expect(findInFabric(demo, 'NODEA', 10).matches).toEqual([
      { target: 'nodeA', type: 'host', field: 'name', text: 'nodeA', rank: 'exact' },
    ]);
  });

  it('answers what the plain reading of the rules answers, for any cut of a name, GUID or description', () => {
    fc.assert(
      fc.property(queryOf(tree), fc.integer({ min: 1, max: 40 }), (query, limit) =>
        checkAnswer(tree, query, limit),
      ),
      { numRuns: 300 },
    );
    fc.assert(fc.property(queryOf(demo), (query) => checkAnswer(demo, query, 5)));
  });

  it('ranks the last text of the index exact when it equals the query (nodeD is last, its LID 5)', () => {
    expect(findInFabric(demo, '5', 5).matches[0]).toEqual({
      target: 'nodeD',
      type: 'host',
      field: 'lid',
      text: '5',
      rank: 'exact',
    });
  });

  it('matches a LID only to a query of digits or lid:N; a port by node/port; a port GUID by 0x', () => {
    const edge1 = demo.nodeByName.get('edge1');
    const byLid = findInFabric(demo, `lid:${edge1?.lid}`, 10);
    expect(byLid.matches).toEqual([
      { target: 'edge1', type: 'switch', field: 'lid', text: String(edge1?.lid), rank: 'exact' },
    ]);
    expect(findInFabric(demo, 'EDGE1/', 10).matches.map((m) => m.target)).toEqual([
      'edge1/1',
      'edge1/2',
      'edge1/3',
      'edge1/4',
    ]);
    const host = demo.nodeByName.get('nodeA');
    expect(findInFabric(demo, host?.guid ?? '', 3).matches[0]).toMatchObject({
      target: 'nodeA',
      rank: 'exact',
    });
  });

  it('says how many matched beyond what it lists, and builds its index once per fabric', () => {
    const answer = findInFabric(tree, 'edge', 5);
    expect(answer.matches).toHaveLength(5);
    expect(answer.total).toBeGreaterThan(5);
    expect(answer.matches.map((m) => m.target)).toEqual(['edge1', 'edge2', 'edge3', 'edge4', 'edge5']);
    expect(findIndex(tree)).toBe(findIndex(tree));
  });
});
