import { describe, expect, it } from 'vitest';
import type { Route } from '../api/types.ts';
import { twoTier } from '../test/testTopologies.ts';
import {
  channelIndexById,
  channelIndices,
  compactLoad,
  endpointNames,
  hopRows,
  hostsOfRails,
  latencyText,
  parseNodeParam,
  pathLoads,
  railText,
  routeHasLids,
  routeNodes,
  staticDetour,
} from './route.ts';

const fabric = twoTier(2, 2, 2);

// GET /api/v1/route?from=nodeA&to=nodeC on ar-demo.
const route: Route = {
  engine: 'fattree',
  from: 'nodeA',
  to: 'nodeC',
  slid: 1,
  dlid: 3,
  hops: [
    {
      node: 'nodeA',
      type: 'host',
      guid: '0x0011750100000000',
      outPort: 1,
      link: 'nodeA/1->edge1/1',
      rateGbps: 100,
    },
    {
      node: 'edge1',
      type: 'switch',
      guid: '0x0011750101000000',
      inPort: 1,
      outPort: 4,
      link: 'edge1/4->core2/1',
      rateGbps: 100,
    },
    {
      node: 'core2',
      type: 'switch',
      guid: '0x0011750101000003',
      inPort: 1,
      outPort: 2,
      link: 'core2/2->edge2/4',
      rateGbps: 100,
    },
    {
      node: 'edge2',
      type: 'switch',
      guid: '0x0011750101000001',
      inPort: 4,
      outPort: 1,
      link: 'edge2/1->nodeC/1',
      rateGbps: 100,
    },
    { node: 'nodeC', type: 'host', guid: '0x0011750100000002', inPort: 1 },
  ],
  links: ['nodeA/1->edge1/1', 'edge1/4->core2/1', 'core2/2->edge2/4', 'edge2/1->nodeC/1'],
  bottleneckGbps: 100,
  latencyNs: 1170,
  latency: { latencyNs: 1170, endpointsNs: 800, switchesNs: 330, routersNs: 0, cablesNs: 40 },
};

describe('route inspector', () => {
  it('lists hops as opareport -o route does: type code, ports, rate, GUID', () => {
    const rows = hopRows(route);
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual({
      index: 1,
      node: 'nodeA',
      type: 'FI',
      inPort: '',
      outPort: '1',
      rate: '100g',
      guid: '0x0011750100000000',
      utilization: null,
      waitFraction: null,
    });
    expect(rows[2]).toMatchObject({ node: 'core2', type: 'SW', inPort: '1', outPort: '2' });
    expect(rows[4]).toMatchObject({ node: 'nodeC', outPort: '', rate: '' });
  });

  it('carries each hop’s live load and names the static route a moved flow left', () => {
    const live: Route = {
      ...route,
      source: 'flow',
      hops: route.hops.map((h, i) => (i === 1 ? { ...h, utilization: 0.97, transmitWaitFraction: 0.4 } : h)),
      static: {
        links: [],
        hops: [{ node: 'nodeA' }, { node: 'edge1' }, { node: 'core2' }, { node: 'edge2' }, { node: 'nodeC' }],
      },
    };
    expect(hopRows(live)[1]).toMatchObject({ utilization: 0.97, waitFraction: 0.4 });
    expect(staticDetour(live)).toBe('nodeA › edge1 › core2 › edge2 › nodeC');
    expect(staticDetour(route)).toBeNull();
  });

  it('reads a path’s live load from the compact arrays, unknown where it has none', () => {
    const index = new Map([
      ['a->b', 0],
      ['b->c', 3],
    ]);
    expect(pathLoads(['a->b', 'b->c', 'x->y'], index, [0.5, 0, 0, null], [0.1, 0, 0, 0.2])).toEqual([
      { id: 'a->b', utilization: 0.5, waitFraction: 0.1 },
      { id: 'b->c', utilization: null, waitFraction: 0.2 },
      { id: 'x->y', utilization: null, waitFraction: null },
    ]);
    const nan = Number.NaN;
    expect(
      pathLoads(['b->c'], index, Float64Array.of(0.5, 0, 0, nan), Float64Array.of(0, 0, 0, nan)),
    ).toEqual([{ id: 'b->c', utilization: null, waitFraction: null }]);
    expect(pathLoads(['a->b'], index, null, null)).toEqual([
      { id: 'a->b', utilization: null, waitFraction: null },
    ]);
  });

  it('makes one channel index per topology, however many panels ask', () => {
    expect(channelIndexById(fabric)).toBe(channelIndexById(fabric));
    expect(channelIndexById(structuredClone(fabric))).not.toBe(channelIndexById(fabric));
    expect([...channelIndexById(structuredClone(fabric))]).toEqual([...channelIndexById(fabric)]);
  });

  it('reads a direction’s load from the compact stream by its channel index', () => {
    const index = channelIndexById(fabric);
    const id = [...index.keys()][1] as string;
    const c = index.get(id) as number;
    const utilization = Array.from({ length: index.size }, (_, i) => (i === c ? 0.75 : 0));
    const load = compactLoad(
      fabric,
      index,
      { utilization, bytesPerSecond: utilization.map(() => null), waitFraction: utilization },
      id,
    );
    expect(load).toEqual({
      kind: fabric.links[c >> 1]?.kind,
      utilization: 0.75,
      bytesPerSecond: null,
      transmitWaitFraction: 0.75,
    });
    expect(
      compactLoad(fabric, index, { utilization, bytesPerSecond: [], waitFraction: [] }, 'no->such'),
    ).toBeNull();
  });

  it('uses each network’s own terms: no LID or GUID on Ethernet, CA on InfiniBand, RT for a router', () => {
    const routed: Route = {
      from: 'opa-node',
      to: 'eth-node',
      slid: 1,
      dlid: 2,
      links: [],
      hops: [
        { node: 'opa-node', type: 'host', guid: '0x1', outPort: 1, network: 'omnipath' },
        { node: 'router', type: 'router', guid: '0x2', inPort: 1, outPort: 2, network: 'ethernet' },
        { node: 'eth-node', type: 'host', guid: '0x3', inPort: 1, network: 'ethernet' },
      ],
    };
    expect(hopRows(routed).map((r) => [r.type, r.guid])).toEqual([
      ['FI', '0x1'],
      ['RT', ''],
      ['NIC', ''],
    ]);
    expect(routeHasLids(routed)).toBe(false);
    expect(routeHasLids(route)).toBe(true);
    const ib = { ...routed, hops: routed.hops.map((h) => ({ ...h, network: 'infiniband' as const })) };
    expect(hopRows(ib)[2]?.type).toBe('CA');
    expect(routeHasLids(ib)).toBe(true);
  });

  it('explains the latency estimate', () => {
    expect(latencyText(route)).toBe('1170 ns (endpoints 800 + switches 330 + cables 40)');
    expect(latencyText({ ...route, latency: undefined })).toBe('1170 ns');
    expect(latencyText({ ...route, latencyNs: undefined })).toBeNull();
  });

  it('offers hosts (not switches) in natural order, and reads names from the URL', () => {
    const names = endpointNames(fabric);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => fabric.nodes.find((x) => x.name === n)?.type !== 'switch')).toBe(true);
    expect(endpointNames(null)).toEqual([]);
    expect(parseNodeParam(' nodeA ')).toBe('nodeA');
    expect(parseNodeParam('')).toBeNull();
    expect(parseNodeParam(null)).toBeNull();
    expect([...routeNodes(route)]).toEqual(['nodeA', 'edge1', 'core2', 'edge2', 'nodeC']);
    expect(routeNodes(null).size).toBe(0);
  });

  it('maps route channel ids to channel indices in topology order', () => {
    const index = channelIndexById(fabric);
    const first = fabric.links[0];
    if (!first) throw new Error('no links');
    const ab = `${first.a.node}/${first.a.port}->${first.b.node}/${first.b.port}`;
    const ba = `${first.b.node}/${first.b.port}->${first.a.node}/${first.a.port}`;
    expect(index.get(ab)).toBe(0);
    expect(index.get(ba)).toBe(1);
    expect([...channelIndices(index, [ba, 'nope/1->x/1', ab])]).toEqual([1, 0]);
  });
});

describe('hosts of several rails', () => {
  it('offers a host whose adapters are named host/device, once, beside its rails', () => {
    expect(hostsOfRails(['node001/mlx5_0', 'node001/mlx5_1', 'node002', 'node003/mlx5_0'])).toEqual([
      'node001',
    ]);
    // A node already named as the host is not offered twice.
    expect(hostsOfRails(['a/x1', 'a/x2', 'a'])).toEqual([]);
  });

  it('says which rail a host-to-host route took', () => {
    expect(
      railText({
        from: 'node001/mlx5_0',
        to: 'node005/mlx5_0',
        rail: { from: 'node001', to: 'node005', rails: ['node001/mlx5_0->node005/mlx5_0', 'b->c'] },
      }),
    ).toBe('node001/mlx5_0 → node005/mlx5_0 (of 2 rail pairs)');
    expect(railText({ from: 'a', to: 'b' })).toBeNull();
  });
});
