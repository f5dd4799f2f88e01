import { buildScenario, waitFraction } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { type PortRates, portKey, type RatesSnapshot } from '../src/lib/port-rates.ts';
import { utilizationBucket } from '../src/lib/summary.ts';
import { combineLinkUp } from '../src/lib/utilization.ts';
import { linkDirectionStates, summarize } from './oracles/object-path.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const guid = (name: string) => fabric.nodeByName.get(name)?.guid as string;

function rates(tx: number | null, rx: number | null): PortRates {
  return {
    transmitBytesPerSecond: tx,
    receiveBytesPerSecond: rx,
    transmitPacketsPerSecond: tx === null ? null : tx / 8192,
    receivePacketsPerSecond: rx === null ? null : rx / 8192,
    transmitWaitTicksPerSecond: 0,
    transmitWaitTickSeconds: null,
    linkUp: null,
  };
}

function snapshot(entries: [string, number, PortRates][]): RatesSnapshot {
  return {
    timeMs: 0,
    ok: true,
    lastSampleAgeSeconds: 0.5,
    ports: new Map(entries.map(([node, port, r]) => [portKey(guid(node), port), r])),
  };
}

describe('link utilization', () => {
  it('takes max(tx at the sender, rx at the receiver) over capacity, as the OPA PM does', () => {
    // edge1 port 4 faces core2 port 1 in ar-demo.
    const states = linkDirectionStates(
      index,
      snapshot([
        ['edge1', 4, rates(10e9, 0)],
        ['core2', 1, rates(0, 12.375e9)],
      ]),
    );
    const up = states.find((s) => s.id === 'edge1/4->core2/1');
    expect(up?.utilization).toBeCloseTo(0.99, 6);
    expect(up?.bytesPerSecond).toBe(12.375e9);
    expect(up?.stale).toBe(false);
    const down = states.find((s) => s.id === 'core2/1->edge1/4');
    expect(down?.utilization).toBe(0);
  });

  it('uses the one end that is known, and reports unknown as stale null — never 0', () => {
    const states = linkDirectionStates(index, snapshot([['nodeA', 1, rates(6e9, null)]]));
    expect(states.find((s) => s.id === 'nodeA/1->edge1/1')?.utilization).toBeCloseTo(0.48, 6);
    const unknown = states.find((s) => s.id === 'edge2/1->nodeC/1');
    expect(unknown?.utilization).toBeNull();
    expect(unknown?.stale).toBe(true);
  });

  it('sums host transmit and fills opatop-style 10 % buckets', () => {
    const states = linkDirectionStates(
      index,
      snapshot([
        ['nodeA', 1, rates(6.2e9, 0)],
        ['nodeB', 1, rates(6.2e9, 0)],
        ['edge1', 4, rates(12.4e9, 0)],
        ['edge1', 3, rates(0, 0)],
      ]),
    );
    const summary = summarize(index, states, 0);
    expect(summary.hostTransmitBytesPerSecond).toBeCloseTo(12.4e9, 0);
    expect(summary.histogram.isl[9]).toBe(1);
    // Known directions: both ways of the 4 cabled ports given (receive 0 counts as known 0 %).
    expect(summary.histogram.isl[0]).toBe(3);
    expect(summary.histogram.host[4]).toBe(2);
    expect(summary.histogram.host[0]).toBe(2);
    expect(summary.staleLinks).toBe(fabric.links.length * 2 - 8);
  });

  it('buckets 100 % into the top bucket and clamps', () => {
    expect(utilizationBucket(1)).toBe(9);
    expect(utilizationBucket(0.0999)).toBe(0);
    expect(utilizationBucket(0.5)).toBe(5);
  });
});

describe('congestion (XmitWait) and link state', () => {
  // Omni-Path at 100 Gb/s: one XmitWait tick per 64-bit flit time, 6.4e-10 s.
  const TICK = 6.4e-10;
  const ticksPerSecond = (fraction: number) => fraction / TICK;

  it('turns XmitWait ticks/s into the share of time the sending port waited, when the tick is known', () => {
    expect(waitFraction(ticksPerSecond(0.5), TICK)).toBeCloseTo(0.5, 9);
    expect(waitFraction(0, TICK)).toBe(0);
    expect(waitFraction(ticksPerSecond(1.2), TICK)).toBe(1);
    expect(waitFraction(null, TICK)).toBeNull();
    expect(waitFraction(1e9, null)).toBeNull();
    expect(waitFraction(1e9, 0)).toBeNull();
    expect(waitFraction(Number.NaN, TICK)).toBeNull();
  });

  it('reads the wait at the sending port only, and leaves it null (never 0) when the tick is unknown', () => {
    const states = linkDirectionStates(
      index,
      snapshot([
        [
          'edge1',
          4,
          {
            ...rates(12.4e9, 0),
            transmitWaitTicksPerSecond: ticksPerSecond(0.5),
            transmitWaitTickSeconds: TICK,
          },
        ],
        ['core2', 1, { ...rates(0, 12.4e9), transmitWaitTicksPerSecond: 0, transmitWaitTickSeconds: TICK }],
        ['nodeA', 1, { ...rates(6e9, 0), transmitWaitTicksPerSecond: 7.8e8 }],
      ]),
    );
    const byId = (id: string) => states.find((s) => s.id === id);
    expect(byId('edge1/4->core2/1')?.transmitWaitFraction).toBeCloseTo(0.5, 9);
    expect(byId('core2/1->edge1/4')?.transmitWaitFraction).toBe(0);
    // ticks known, tick length not: unknown
    expect(byId('nodeA/1->edge1/1')?.transmitWaitTicksPerSecond).toBe(7.8e8);
    expect(byId('nodeA/1->edge1/1')?.transmitWaitFraction).toBeNull();
    // the receiving end's wait says nothing about this direction
    expect(byId('edge1/1->nodeA/1')?.transmitWaitFraction).toBeNull();
  });

  it('marks a link down when either end reports it down, up when an end reports it active', () => {
    expect(combineLinkUp(true, false)).toBe(false);
    expect(combineLinkUp(null, false)).toBe(false);
    expect(combineLinkUp(true, null)).toBe(true);
    expect(combineLinkUp(true, true)).toBe(true);
    expect(combineLinkUp(null, undefined)).toBeNull();
    const states = linkDirectionStates(
      index,
      snapshot([
        ['edge1', 4, { ...rates(0, 0), linkUp: false }],
        ['core2', 1, { ...rates(0, 0), linkUp: true }],
        ['nodeA', 1, { ...rates(0, 0), linkUp: true }],
      ]),
    );
    const byId = (id: string) => states.find((s) => s.id === id);
    expect(byId('edge1/4->core2/1')?.linkUp).toBe(false);
    expect(byId('core2/1->edge1/4')?.linkUp).toBe(false);
    // A down link carries nothing: its utilization is a measured 0, not unknown.
    expect(byId('edge1/4->core2/1')?.utilization).toBe(0);
    expect(byId('nodeA/1->edge1/1')?.linkUp).toBe(true);
    expect(byId('edge2/1->nodeC/1')?.linkUp).toBeNull();
  });
});
