import { describe, expect, it } from 'vitest';
import { buildScenario, fatTreeForRadix, scenarioNames } from '../../src/index.ts';

const shape = (name: string) => {
  const f = buildScenario(name);
  return {
    hosts: f.nodes.filter((n) => n.type === 'host').length,
    switches: f.nodes.filter((n) => n.type === 'switch').length,
    routers: f.nodes.filter((n) => n.type === 'router').length,
    isls: f.links.filter((l) => l.kind === 'isl').length,
  };
};

describe('scenarios', () => {
  it('lists every seed scenario', () => {
    expect(scenarioNames()).toEqual([
      'ar-demo',
      'fat-tree-1152',
      'fat-tree-6912',
      'fat-tree-27648',
      'single-switch-32',
      'opa-ethernet-router',
      'lustre-storage',
      'roce-leafspine',
    ]);
  });

  it('fat-tree-1152 has 1152 hosts, 72 switches and 1152 ISLs', () => {
    expect(shape('fat-tree-1152')).toEqual({ hosts: 1152, switches: 72, routers: 0, isls: 1152 });
  });

  it('fat-tree-27648 has 27,648 hosts and 2,880 switches in three tiers', () => {
    const f = buildScenario('fat-tree-27648');
    expect(shape('fat-tree-27648')).toEqual({ hosts: 27648, switches: 2880, routers: 0, isls: 55296 });
    expect(new Set(f.nodes.filter((n) => n.type === 'switch').map((n) => n.tier))).toEqual(
      new Set([1, 2, 3]),
    );
  });

  it('single-switch-32 puts 32 hosts on one 48-port switch with 2 m cables', () => {
    const f = buildScenario('single-switch-32');
    expect(shape('single-switch-32')).toEqual({ hosts: 32, switches: 1, routers: 0, isls: 0 });
    expect(f.nodeByName.get('switch1')?.portCount).toBe(48);
    expect(f.links.every((l) => l.lengthM === 2 && l.rateGbps === 100)).toBe(true);
  });

  it('opa-ethernet-router joins the two networks through a router with an HFI and a NIC', () => {
    const f = buildScenario('opa-ethernet-router');
    expect(f.nodeByName.get('router')).toMatchObject({ type: 'router', portCount: 2 });
    const byRouterPort = f.links
      .filter((l) => l.a.node === 'router')
      .map((l) => [l.a.port, l.fabricType, l.mtu]);
    expect(byRouterPort).toEqual([
      [1, 'omnipath', 10236],
      [2, 'ethernet', 9000],
    ]);
  });

  it('lustre-storage has a 40 GbE and a 56 Gb/s FDR network of one server and 4 clients each', () => {
    const f = buildScenario('lustre-storage');
    const rates = f.links.map((l) => `${l.fabricType}:${l.rateGbps}`);
    expect(rates.filter((r) => r === 'ethernet:40')).toHaveLength(5);
    expect(rates.filter((r) => r === 'infiniband:56')).toHaveLength(5);
  });

  it('roce-leafspine is 4 spines over 8 leaves of 16 hosts, all 400 GbE Ethernet at MTU 9000', () => {
    const f = buildScenario('roce-leafspine');
    expect(shape('roce-leafspine')).toEqual({ hosts: 128, switches: 12, routers: 0, isls: 32 });
    expect(f.fabricType).toBe('ethernet');
    expect(f.links.every((l) => l.fabricType === 'ethernet' && l.rateGbps === 400 && l.mtu === 9000)).toBe(
      true,
    );
    const leaf1Up = f.links.filter((l) => l.kind === 'isl' && l.a.node === 'leaf1').map((l) => l.b.node);
    expect(leaf1Up).toEqual(['spine1', 'spine2', 'spine3', 'spine4']);
  });

  it('builds oversubscribed and trunked trees from a radix', () => {
    const over = fatTreeForRadix({ radix: 48, tiers: 2, oversubscription: 2 });
    const edge = over.nodeByName.get('edge1');
    expect(edge?.ports.filter((p) => p && over.links[p.link]?.kind === 'host')).toHaveLength(32);
    expect(edge?.ports.filter((p) => p && over.links[p.link]?.kind === 'isl')).toHaveLength(16);
    const trunked = fatTreeForRadix({ radix: 8, tiers: 2, islsPerPair: 2 });
    const pairs = trunked.links.filter((l) => l.a.node === 'edge1' && l.b.node === 'core1');
    expect(pairs).toHaveLength(2);
    expect(() => fatTreeForRadix({ radix: 48, tiers: 3, hostCount: 30000 })).toThrow(
      /need 53 pods; at most 48/,
    );
  });
});
