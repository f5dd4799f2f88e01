import { describe, expect, it } from 'vitest';
import type { Route } from '../api/types.ts';
import {
  channelIndexById,
  channelIndices,
  endpointNames,
  hopRows,
  latencyText,
  parseNodeParam,
  routeNodes,
} from './route.ts';
import { twoTier } from './testTopologies.ts';

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
    });
    expect(rows[2]).toMatchObject({ node: 'core2', type: 'SW', inPort: '1', outPort: '2' });
    expect(rows[4]).toMatchObject({ node: 'nodeC', outPort: '', rate: '' });
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
