import { formatIbnetdiscover } from '@fabscope/test-support';
import { describe, expect, it } from 'vitest';
import { buildScenario, parseIbnetdiscover } from '../../src/index.ts';

describe('cable ids across fabrics and tools', () => {
  it('a generated fabric and its ibnetdiscover dump (switches list their cables first) write each cable alike', () => {
    const generated = buildScenario('ar-demo');
    const parsed = parseIbnetdiscover(formatIbnetdiscover(generated));
    // The dump names nodes by GUID (no node-name map): read its ids back in the generator's names.
    const nameOfGuid = new Map(generated.nodes.map((n) => [n.guid, n.name]));
    const renamed = new Map(parsed.nodes.map((n) => [n.name, nameOfGuid.get(n.guid) ?? n.name]));
    const inGeneratedNames = parsed.links.map((l) => {
      const [, a, p, b, q] = /^(.*)\/(\d+)--(.*)\/(\d+)$/.exec(l.id) ?? [];
      return `${renamed.get(a ?? '')}/${p}--${renamed.get(b ?? '')}/${q}`;
    });
    expect(inGeneratedNames.sort()).toEqual(generated.links.map((l) => l.id).sort());
    expect(generated.links.map((l) => l.id)).toContain('edge1/3--core1/1');
    expect(generated.links.map((l) => l.id)).toContain('nodeA/1--edge1/1');
  });
});
