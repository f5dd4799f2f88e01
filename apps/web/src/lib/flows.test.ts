import { describe, expect, it } from 'vitest';
import { hasSeedHosts, pathNodes } from './flows.ts';

describe('pathNodes', () => {
  it('lists the nodes a flow crosses, once each', () => {
    expect(
      pathNodes(['nodeA/1->edge1/1', 'edge1/4->core2/1', 'core2/2->edge2/4', 'edge2/1->nodeC/1']),
    ).toEqual(['nodeA', 'edge1', 'core2', 'edge2', 'nodeC']);
  });

  it('copes with an empty path', () => {
    expect(pathNodes([])).toEqual([]);
  });
});

describe('hasSeedHosts', () => {
  const named = (...names: string[]) => ({ nodes: names.map((name) => ({ name })) });

  it('offers the seed pairs only where nodeA…nodeD exist', () => {
    expect(hasSeedHosts(named('nodeA', 'nodeB', 'nodeC', 'nodeD', 'edge1'))).toBe(true);
    expect(hasSeedHosts(named('host1', 'host2'))).toBe(false);
    expect(hasSeedHosts(null)).toBe(true);
  });
});
