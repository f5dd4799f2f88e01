import { buildScenario, minHopRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { type PortRates, portKey } from '../src/lib/port-rates.ts';
import { buildTestApp } from './helper.ts';
import { linkDirectionStates, summarize } from './oracles/object-path.ts';

function rates(tx: number, rx: number): PortRates {
  return {
    transmitBytesPerSecond: tx,
    receiveBytesPerSecond: rx,
    transmitPacketsPerSecond: tx / 8192,
    receivePacketsPerSecond: rx / 8192,
    transmitWaitTicksPerSecond: null,
    transmitWaitTickSeconds: null,
    linkUp: true,
  };
}

describe('host transmit total on a fabric with an IP router', () => {
  it('counts an iperf through the router once: what the host sent, not what the router forwarded', () => {
    // Seed 000: opa-node → router (port 1, Omni-Path) → router port 2 (Ethernet) → eth-node, 12.3 GB/s.
    const fabric = buildScenario('opa-ethernet-router');
    const index = new LinkIndex(fabric);
    const guid = (name: string) => fabric.nodeByName.get(name)?.guid ?? '';
    const iperf = 12.3e9;
    const ports = new Map<string, PortRates>([
      [portKey(guid('opa-node'), 1), rates(iperf, 0)],
      [portKey(guid('opa-edge'), 1), rates(0, iperf)],
      [portKey(guid('opa-edge'), 2), rates(iperf, 0)],
      [portKey(guid('router'), 1), rates(0, iperf)],
      [portKey(guid('router'), 2), rates(iperf, 0)],
      [portKey(guid('eth-switch'), 1), rates(0, iperf)],
      [portKey(guid('eth-switch'), 2), rates(iperf, 0)],
      [portKey(guid('eth-node'), 1), rates(0, iperf)],
    ]);
    const states = linkDirectionStates(index, { timeMs: 0, ok: true, lastSampleAgeSeconds: 0.2, ports });
    // The router's link toward the Ethernet switch does carry the flow…
    expect(states.find((s) => s.id === 'router/2->eth-switch/1')?.bytesPerSecond).toBe(iperf);
    // …but the total is the host's 12.3 GB/s, not 24.6.
    expect(summarize(index, states, 0).hostTransmitBytesPerSecond).toBe(iperf);
  });
});

describe('topology of a fabric of two networks', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const fabric = buildScenario('lustre-storage');
    app = await buildTestApp({ fabric, tables: minHopRouting(fabric) });
  });
  afterAll(() => app.close());

  it("names each cable's network where it is not the fabric's type", async () => {
    const body = (await app.inject('/api/v1/topology')).json() as {
      fabricType: string;
      links: { id: string; fabricType?: string }[];
    };
    expect(body.fabricType).toBe('ethernet');
    const ib = body.links.filter((l) => l.id.includes('ib-switch'));
    const eth = body.links.filter((l) => l.id.includes('eth-switch'));
    expect(ib).toHaveLength(5);
    for (const l of ib) expect(l.fabricType).toBe('infiniband');
    expect(eth).toHaveLength(5);
    for (const l of eth) expect(l).not.toHaveProperty('fabricType');
  });
});
