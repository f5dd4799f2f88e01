import { buildScenario } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import {
  CONGESTION_COUNTERS,
  ERROR_COUNTERS,
  errorsPerSecond,
  UNKNOWN_ERRORS,
} from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { type PortRates, portKey } from '../src/lib/port-rates.ts';
import { linkDirectionStates, summarize } from './oracles/object-path.ts';
import { compactTick } from './oracles/rankings.ts';

describe('a direction’s errors per second', () => {
  it('sums the error counters only: not congestion or bubble counters, not the gauges', () => {
    expect(
      errorsPerSecond({
        ...UNKNOWN_ERRORS,
        receiveErrors: 3,
        symbolErrors: 1000,
        congestionDiscards: 50,
        receiveFecn: 7,
        receiveBubble: 9,
        linkQualityIndicator: 2,
        linkWidthDowngradeLanes: 1,
      }),
    ).toBe(1003);
  });

  it('counts discards, VL15 drops and FECN as congestion, never as errors (a busy port is not a broken one)', () => {
    // Seed 002's congested up-port: XmitDiscards 2/s and XmitWait, nothing wrong with the link.
    const congested = {
      ...UNKNOWN_ERRORS,
      receiveErrors: 0,
      transmitDiscards: 2,
      vl15Dropped: 1,
      markFecn: 40,
    };
    expect(errorsPerSecond(congested)).toBe(0);
    for (const field of CONGESTION_COUNTERS)
      expect(errorsPerSecond({ ...UNKNOWN_ERRORS, linkDowned: 0, [field]: 5 })).toBe(0);
    // Every error counter is one of the integrity, security or routing ones, and each counts.
    const errorFields = [...ERROR_COUNTERS.integrity, ...ERROR_COUNTERS.security, ...ERROR_COUNTERS.routing];
    for (const field of errorFields) expect(errorsPerSecond({ ...UNKNOWN_ERRORS, [field]: 5 })).toBe(5);
    expect(errorFields.filter((f) => CONGESTION_COUNTERS.includes(f))).toEqual([]);
  });

  it('is unknown when no error counter is known, 0 when they are known and quiet', () => {
    expect(errorsPerSecond(UNKNOWN_ERRORS)).toBeNull();
    expect(errorsPerSecond({ ...UNKNOWN_ERRORS, congestionDiscards: 5 })).toBeNull();
    expect(errorsPerSecond({ ...UNKNOWN_ERRORS, linkDowned: 0 })).toBe(0);
  });
});

describe('a fabric kind without a counter', () => {
  // Seed 000: opa-node → opa-edge → router (HFI | NIC) → eth-switch → eth-node; every port waits
  // and discards as the emulator's RoCE-like Ethernet ports report.
  const fabric = buildScenario('opa-ethernet-router');
  const index = new LinkIndex(fabric);
  const guid = (name: string) => fabric.nodeByName.get(name)?.guid ?? '';
  const busy: PortRates = {
    transmitBytesPerSecond: 12.3e9,
    receiveBytesPerSecond: 12.3e9,
    transmitPacketsPerSecond: 1.5e6,
    receivePacketsPerSecond: 1.5e6,
    transmitWaitTicksPerSecond: 8e8,
    transmitWaitTickSeconds: 1e-9,
    linkUp: true,
    errors: { transmitDiscards: 2, receiveErrors: 0, symbolErrors: 0, linkDowned: 0 },
  };
  const ports = new Map<string, PortRates>();
  for (const node of fabric.nodes)
    for (const port of node.ports)
      if (port && port.link >= 0) ports.set(portKey(guid(node.name), port.number), busy);
  const states = linkDirectionStates(index, { timeMs: 0, ok: true, lastSampleAgeSeconds: 0.2, ports });
  const byId = new Map(states.map((s) => [s.id, s]));
  const ethernet = [
    'router/2->eth-switch/1',
    'eth-switch/1->router/2',
    'eth-switch/2->eth-node/1',
    'eth-node/1->eth-switch/2',
  ];

  it('Ethernet directions have no PM category, and their pause is the same congestion share as XmitWait', () => {
    for (const id of ethernet) {
      const s = byId.get(id);
      // The port's pause received (tx-wait) with its tick: 80 % of the time held back, as on Omni-Path.
      expect(s?.transmitWaitFraction, id).toBeCloseTo(0.8, 6);
      expect(s?.transmitWaitTicksPerSecond, id).toBe(8e8);
      expect(Object.values(s?.categories ?? {}), id).toEqual([null, null, null, null, null, null]);
      // Their rates and error counters are still what the ports say.
      expect(s?.bytesPerSecond, id).toBe(12.3e9);
      expect(s?.errorsPerSecond, id).toBe(0);
    }
    // The Omni-Path side keeps both: 80 % of the time waiting is Congestion 8 × threshold.
    const opa = byId.get('opa-node/1->opa-edge/1');
    expect(opa?.transmitWaitFraction).toBeCloseTo(0.8, 6);
    expect(opa?.categories.congestion).toBeCloseTo(8, 6);
  });

  it('the compact stream and the summary say the same: the wait but no category on Ethernet', () => {
    const tick = compactTick({ time: '', health: {}, summary: {}, links: states });
    for (const id of ethernet) {
      const channel = index.channels.find((c) => c.fixed.id === id)?.index ?? -1;
      expect(tick.waitFraction[channel], id).toBeCloseTo(0.8, 3);
    }
    // Discards alone are no errors: nothing listed.
    expect(tick.errors).toEqual([]);
    const summary = summarize(index, states, 0, { timeMs: 0, ok: true, lastSampleAgeSeconds: 0.2, ports });
    expect(summary.categories?.congestion.unknown).toBe(ethernet.length);
    expect(summary.categories?.congestion.host[4]).toBe(states.length - ethernet.length);
  });
});
