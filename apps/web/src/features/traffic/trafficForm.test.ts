import { TRAFFIC_PATTERNS } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRAFFIC_KINDS, type TrafficDraft, trafficRequestOf } from './trafficForm.ts';

const draft = (d: Partial<TrafficDraft> & Pick<TrafficDraft, 'kind'>): TrafficDraft => ({
  arg: '',
  streams: '',
  hosts: '',
  ...d,
});

describe('the Traffic panel form', () => {
  it('makes the request of every pattern the API offers', () => {
    expect(trafficRequestOf(draft({ kind: 'pairs', arg: 'nodeA-nodeC, nodeB-nodeD' }))).toEqual({
      ok: true,
      request: {
        pattern: 'pairs',
        pairs: [
          ['nodeA', 'nodeC'],
          ['nodeB', 'nodeD'],
        ],
      },
    });
    expect(trafficRequestOf(draft({ kind: 'shift', arg: '2', hosts: 'n1, n2 n3' }))).toEqual({
      ok: true,
      request: { pattern: 'shift', k: 2, hosts: ['n1', 'n2', 'n3'] },
    });
    expect(trafficRequestOf(draft({ kind: 'permutation' }))).toEqual({
      ok: true,
      request: { pattern: 'permutation' },
    });
    expect(trafficRequestOf(draft({ kind: 'permutation', arg: '7' }))).toEqual({
      ok: true,
      request: { pattern: 'permutation', seed: 7 },
    });
    expect(trafficRequestOf(draft({ kind: 'all-to-all', hosts: 'a,b' }))).toEqual({
      ok: true,
      request: { pattern: 'all-to-all', hosts: ['a', 'b'] },
    });
    expect(trafficRequestOf(draft({ kind: 'incast', arg: 'nodeA', hosts: 'ignored' }))).toEqual({
      ok: true,
      request: { pattern: 'incast', to: 'nodeA' },
    });
    expect(trafficRequestOf(draft({ kind: 'iperf', arg: 'opa-node>eth-node', streams: '16' }))).toEqual({
      ok: true,
      request: { pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 },
    });
    expect(trafficRequestOf(draft({ kind: 'storage', arg: 'lustre-server-ib' }))).toEqual({
      ok: true,
      request: { pattern: 'storage', server: 'lustre-server-ib' },
    });
  });

  it('says why a draft makes no request', () => {
    expect(trafficRequestOf(draft({ kind: 'pairs', arg: 'nodeA' }))).toMatchObject({ ok: false });
    expect(trafficRequestOf(draft({ kind: 'shift', arg: '0' }))).toEqual({
      ok: false,
      message: 'K must be a whole number, not 0',
    });
    expect(trafficRequestOf(draft({ kind: 'iperf', arg: 'a-b', streams: '2000' }))).toEqual({
      ok: false,
      message: 'Streams (-P) are 1 to 1024',
    });
    // A pair of names with dashes is ambiguous with "-": the form asks for ">".
    expect(trafficRequestOf(draft({ kind: 'iperf', arg: 'opa-node-eth-node' }))).toMatchObject({ ok: false });
  });

  it('never throws, whatever is typed, and a request always names its pattern', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRAFFIC_KINDS),
        fc.string(),
        fc.string(),
        fc.string(),
        (kind, arg, streams, hosts) => {
          const result = trafficRequestOf({ kind, arg, streams, hosts });
          if (result.ok) expect(result.request.pattern).toBe(kind);
          else expect(result.message.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('the patterns offered', () => {
  it('are exactly the API’s', () => {
    expect([...TRAFFIC_KINDS].sort()).toEqual([...TRAFFIC_PATTERNS].sort());
  });
});
