import { describe, expect, it } from 'vitest';
import {
  buildForwardingTables,
  buildScenario,
  describeRoute,
  fatTreeRouting,
  findNode,
  formatOpareportRoute,
  NoRouteError,
  routeBetween,
  routeOfChannels,
  UnknownNodeError,
} from '../../src/index.ts';

describe('route reports', () => {
  it('single-switch-32: 930 ± 10 ns host to host with the seed-004 latency model', () => {
    const fabric = buildScenario('single-switch-32');
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric), 'node01', 'node17'),
    );
    expect(report.latencyNs).toBeGreaterThanOrEqual(920);
    expect(report.latencyNs).toBeLessThanOrEqual(940);
    expect(report.latency).toEqual({
      latencyNs: 930,
      endpointsNs: 800,
      switchesNs: 110,
      routersNs: 0,
      cablesNs: 20,
    });
  });

  it('gives each hop its node, ports, the link it leaves by and that link’s rate', () => {
    const fabric = buildScenario('ar-demo');
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric, 'fattree'), 'nodeA', 'nodeC'),
    );
    expect(report.hops[1]).toEqual({
      node: 'edge1',
      type: 'switch',
      guid: '0x0011750101000000',
      inPort: 1,
      outPort: 4,
      link: 'edge1/4->core2/1',
      rateGbps: 100,
      network: 'omnipath',
    });
    expect(report.hops.at(-1)).toMatchObject({ node: 'nodeC', inPort: 1 });
    expect(report.hops.at(-1)?.link).toBeUndefined();
    expect(report).toMatchObject({
      slid: 1,
      dlid: 3,
      bottleneckGbps: 100,
      latencyNs: 800 + 3 * 110 + 4 * 10,
    });
    expect(
      describeRoute(fabric, routeBetween(fabric, buildForwardingTables(fabric), 'nodeA', 'nodeC'), {
        switchNs: 100,
      }).latencyNs,
    ).toBe(1140);
  });

  it('names the network of each hop: a router joins Omni-Path to Ethernet', () => {
    const fabric = buildScenario('opa-ethernet-router');
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric, 'minhop'), 'opa-node', 'eth-node'),
    );
    expect(report.hops.map((h) => [h.node, h.network])).toEqual([
      ['opa-node', 'omnipath'],
      ['opa-edge', 'omnipath'],
      ['router', 'ethernet'],
      ['eth-switch', 'ethernet'],
      ['eth-node', 'ethernet'],
    ]);
  });

  it('prints the opareport -o route layout', () => {
    const fabric = buildScenario('ar-demo');
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric), 'nodeA', 'nodeC'),
    );
    const text = formatOpareportRoute(fabric, report);
    expect(text.split('\n').slice(0, 8)).toEqual([
      'Routes between ports:',
      '    0x0011750100000000   1 FI  nodeA',
      'and 0x0011750100000002   1 FI  nodeC',
      'SLID: 0x0001 to DLID: 0x0003 SL: 0',
      '4 Links Traversed',
      'Rate  NodeGUID           Port Type Name',
      '100g  0x0011750100000000   1 FI  nodeA',
      '<->   0x0011750101000000   1 SW  edge1',
    ]);
    expect(text).toMatch(
      /100g {2}0x0011750101000003 {3}2 SW {2}core2\n<-> {3}0x0011750101000001 {3}4 SW {2}edge2\n/,
    );
  });

  it('crosses a router, counting its forwarding cost, with the adapters typed by network', () => {
    const fabric = buildScenario('opa-ethernet-router');
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric, 'minhop'), 'opa-node', 'eth-node'),
    );
    expect(report.latency).toMatchObject({ switchesNs: 220, routersNs: 800 });
    const text = formatOpareportRoute(fabric, report);
    expect(text).toMatch(/and - +1 NIC eth-node/);
    expect(text).toContain('SLID: 0x0001 to DLID: -      SL: 0');
  });

  it('gives no GUID or LID to Ethernet and IP-router hops, in either direction', () => {
    const fabric = buildScenario('opa-ethernet-router');
    const tables = buildForwardingTables(fabric, 'minhop');
    const out = describeRoute(fabric, routeBetween(fabric, tables, 'opa-node', 'eth-node'));
    expect(out.hops.map((h) => [h.node, h.guid ?? null])).toEqual([
      ['opa-node', fabric.nodeByName.get('opa-node')?.guid],
      ['opa-edge', fabric.nodeByName.get('opa-edge')?.guid],
      ['router', null],
      ['eth-switch', null],
      ['eth-node', null],
    ]);
    expect([out.slid, out.dlid]).toEqual([fabric.nodeByName.get('opa-node')?.lid, undefined]);
    const back = describeRoute(fabric, routeBetween(fabric, tables, 'eth-node', 'opa-node'));
    expect(back.hops.filter((h) => h.guid !== undefined).map((h) => h.node)).toEqual([
      'opa-edge',
      'opa-node',
    ]);
    expect([back.slid, back.dlid]).toEqual([undefined, fabric.nodeByName.get('opa-node')?.lid]);
    // The text: a dash in the GUID column of every Ethernet or router port, GUIDs on Omni-Path.
    const rows = formatOpareportRoute(fabric, back)
      .split('\n')
      .filter((l) => /^(\d+g|<->) /.test(l));
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      const guid = row.slice(6, 24).trim();
      if (/ (eth-node|eth-switch|router)( \(.*\))?$/.test(row)) expect(guid, row).toBe('-');
      else expect(guid, row).toMatch(/^0x[0-9a-f]{16}$/);
    }
  });

  it('finds nodes by name, GUID, LID or unique description', () => {
    const fabric = buildScenario('opa-ethernet-router');
    expect(findNode(fabric, 'router').name).toBe('router');
    expect(findNode(fabric, '0x11750102000000').name).toBe('router');
    expect(findNode(fabric, 'IP router: 100 Gb/s HFI + 100 GbE NIC').name).toBe('router');
    expect(findNode(fabric, `lid:${fabric.nodeByName.get('eth-node')?.lid}`).name).toBe('eth-node');
    expect(() => findNode(fabric, 'nobody')).toThrow(UnknownNodeError);
  });
});

describe('routeOfChannels', () => {
  it('rebuilds the hops of every route from its channels alone (all host pairs of ar-demo and single-switch-32)', () => {
    for (const name of ['ar-demo', 'single-switch-32']) {
      const fabric = buildScenario(name);
      const tables = fatTreeRouting(fabric);
      const hosts = fabric.nodes.filter((n) => n.type === 'host');
      for (const a of hosts) {
        for (const b of hosts) {
          if (a === b) continue;
          const route = routeBetween(fabric, tables, a.name, b.name);
          expect(routeOfChannels(fabric, route.channels)).toEqual(route);
        }
      }
    }
  });

  it('refuses channels that do not join up', () => {
    const fabric = buildScenario('ar-demo');
    const ac = routeBetween(fabric, fatTreeRouting(fabric), 'nodeA', 'nodeC').channels;
    expect(() => routeOfChannels(fabric, [ac[0] as number, ac[2] as number])).toThrow(/path breaks/);
    expect(() => routeOfChannels(fabric, [])).toThrow(NoRouteError);
  });
});
