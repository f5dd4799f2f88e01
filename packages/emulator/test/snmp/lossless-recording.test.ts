import { FabricBuilder, fatTreeRouting, generatedGuid } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, switchRecording, trafficBetween, withLosslessTraffic } from '../../src/index.ts';
import { losslessCarriedOn } from '../../src/snmp/lossless-traffic.ts';

/** Two hosts on leaf1 sending to one on leaf2 through one spine, 100 GbE: an incast on leaf2's host port. */
function incast() {
  const b = new FabricBuilder('incast', 'ethernet');
  for (let h = 1; h <= 3; h++)
    b.addNode({ name: `host${h}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  for (let l = 1; l <= 2; l++)
    b.addNode({ name: `leaf${l}`, type: 'switch', guid: generatedGuid(1, l), portCount: 3, tier: 1 });
  b.addNode({ name: 'spine1', type: 'switch', guid: generatedGuid(2, 1), portCount: 2, tier: 2 });
  b.connect('host1', 1, 'leaf1', 1, 100);
  b.connect('host2', 1, 'leaf1', 2, 100);
  b.connect('host3', 1, 'leaf2', 1, 100);
  b.connect('leaf1', 3, 'spine1', 1, 400);
  b.connect('leaf2', 3, 'spine1', 2, 400);
  return b.build();
}

describe("the recordings' PFC pause and ECN marks", () => {
  it('record IEEE8021-PFC-MIB frames and ARISTA-QOS-MIB marks at the emulator’s rates, on the ports that have them', () => {
    const fabric = incast();
    const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: 0 });
    emulator.startFlows({
      pattern: 'pairs',
      pairs: [
        ['host1', 'host3'],
        ['host2', 'host3'],
      ],
    });
    emulator.advance(1000);
    const [before, lb] = [emulator.portCounters(), emulator.ethernetPortCounters()];
    emulator.advance(1000);
    const after = emulator.portCounters();
    const traffic = withLosslessTraffic(
      trafficBetween(before, after),
      lb,
      emulator.ethernetPortCounters(),
      1,
    );
    const full = emulator.losslessCongestion().full.map((f) => f.link);
    expect(full).toEqual(['leaf2/1->host3/1']);
    const leaf2 = fabric.nodeByName.get('leaf2');
    if (!leaf2) throw new Error('no leaf2');
    const text = switchRecording({
      fabric,
      node: leaf2,
      traffic: (p) => traffic.get(`leaf2/${p}`),
      atMs: 2000,
      bootMs: 0,
    });
    const marks = traffic.get('leaf2/1')?.lossless?.ecnMarkedRate as number;
    expect(marks).toBeGreaterThan(0);
    expect(text).toContain(`1.3.6.1.4.1.30065.3.13.1.9.1.4.1.3|70:numeric|rate=${marks},atime=1,`);
    // leaf2 pauses the spine feeding it: PFC requests sent on its port 3, as a wrapping Counter32.
    const sent = traffic.get('leaf2/3')?.lossless?.pauseSentRate as number;
    expect(sent).toBeGreaterThan(0);
    expect(text).toContain(`1.3.111.2.802.1.1.21.1.1.1.2.3|65:numeric|rate=${sent},atime=1,wrap=1,`);
    expect(text).toContain('1.3.6.1.4.1.30065.3.13.1.9.1.4.3.3|70|0');
  });

  it('never carries a lossless counter back, whatever the old and new rates', () => {
    const value = fc.bigInt({ min: 0n, max: 1n << 40n });
    const rate = fc.double({ min: 0, max: 1e7, noNaN: true });
    const lossless = fc.record({
      pauseReceived: value,
      pauseSent: value,
      ecnMarked: value,
      pauseReceivedRate: rate,
      pauseSentRate: rate,
      ecnMarkedRate: rate,
    });
    fc.assert(
      fc.property(lossless, lossless, fc.double({ min: 0, max: 1e4, noNaN: true }), (w, n, seconds) => {
        const carried = losslessCarriedOn(w, n, seconds);
        for (const k of ['pauseReceived', 'pauseSent', 'ecnMarked'] as const) {
          expect(carried?.[k]).toBeGreaterThanOrEqual(n[k]);
          expect(carried?.[k]).toBeGreaterThanOrEqual(w[k]);
        }
      }),
    );
  });
});
