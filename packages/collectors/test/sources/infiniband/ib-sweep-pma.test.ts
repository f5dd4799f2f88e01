// The sweep against PMAs that have what ibsim's lacks (CapabilityMask2 0, no PortSamplesControl): 64-bit
// error counters and XmitWait in PortCountersExtended, PortSamplesControl's Tick, and clears of narrow
// counters near saturation. The agents answer at the libibumad boundary, each field written where the
// spec puts it (oracles/fake-pma.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CounterLedger } from '../../../src/sources/infiniband/ib-counter-ledger.ts';
import type { IbPort } from '../../../src/sources/infiniband/ib-discovery.ts';
import { PORT_COUNTERS_ERRORS } from '../../../src/sources/infiniband/ib-pm-counters.ts';
import { type IbPortReading, readRecord } from '../../../src/sources/infiniband/ib-port-record.ts';
import { portSample } from '../../../src/sources/infiniband/ib-port-sample.ts';
import { IbSweeper } from '../../../src/sources/infiniband/ib-sweeper.ts';
import { type FakeAgent, type FakePort, FakeUmad, fakePort } from '../../oracles/fake-pma.ts';

const SWITCH_LID = 2;
const CA_LID = 5;
/** ClassPortInfo CapabilityMask: AllPortSelect, IsExtendedWidthSupported, PortXmitWait (ibsim's 0x1300). */
const CAP_MASK = 0x1300;
const ADDITIONAL_PORT_COUNTERS_EXTENDED = 0x2;

function subnet(capMask2: number, samples: FakePort['samples']) {
  const sw: FakeAgent = {
    capMask: CAP_MASK,
    capMask2,
    ports: new Map([1, 2, 3].map((n) => [n, fakePort({ samples })])),
  };
  const ca: FakeAgent = { capMask: CAP_MASK, capMask2, ports: new Map([[1, fakePort({ samples })]]) };
  const umad = new FakeUmad(
    new Map([
      [SWITCH_LID, sw],
      [CA_LID, ca],
    ]),
  );
  const sweeper = new IbSweeper(umad);
  sweeper.setTargets(Uint16Array.of(2, 2, 2, 5), Uint8Array.of(1, 2, 3, 1), Uint8Array.of(1, 1, 1, 0));
  return { sw, ca, umad, sweeper };
}

// Every MAD is answered at once: a long timeout never waits, and a loaded machine expires nothing.
const SETTINGS = { outstanding: 8, timeoutMs: 10_000, retries: 0 };

function sweep(sweeper: IbSweeper, resetCounters = false): IbPortReading[] {
  const outcome = sweeper.sweep({ ...SETTINGS, resetCounters });
  return [0, 1, 2, 3].map((i) => readRecord(outcome.records, i, 1));
}

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const narrowErrors = fc.tuple(...PORT_COUNTERS_ERRORS.map(() => fc.integer({ min: 0, max: 15 })));

describe('64-bit error counters (PortCountersExtended, AdditionalPortCountersExtended)', () => {
  it('are read where the PMA ClassPortInfo CapabilityMask2 has them, the narrow ones elsewhere', () => {
    fc.assert(
      fc.property(
        fc.tuple(...PORT_COUNTERS_ERRORS.map(() => u64)),
        u64,
        narrowErrors,
        (wide, wait, narrow) => {
          for (const capMask2 of [ADDITIONAL_PORT_COUNTERS_EXTENDED, 0]) {
            const { sw, sweeper } = subnet(capMask2, null);
            const p = sw.ports.get(2) as FakePort;
            PORT_COUNTERS_ERRORS.forEach((name, k) => {
              p.errors64[name] = wide[k] as bigint;
              p.errors[name] = narrow[k] as number;
            });
            p.xmitWait64 = wait;
            p.xmitWait = 1234;
            const r = sweep(sweeper)[1] as IbPortReading;
            const extended = capMask2 !== 0;
            expect(r.countersExtended).toBe(extended);
            expect(r.transmitWaitTicks).toBe(extended ? wait : 1234n);
            expect(r.errors).toEqual(
              Object.fromEntries(
                PORT_COUNTERS_ERRORS.map((name, k) => [name, extended ? Number(wide[k]) : narrow[k]]),
              ),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('what a steady sweep asks', () => {
  it('PortCountersExtended alone where it has the errors and XmitWait; PortInfo when LinkDowned moved', () => {
    const { sw, umad, sweeper } = subnet(ADDITIONAL_PORT_COUNTERS_EXTENDED, null);
    sweep(sweeper);
    const asked = (from: number) => umad.sent.slice(from).map((m) => `${m.lid}/${m.port}:${m.attributeId}`);
    let from = umad.sent.length;
    const steady = sweep(sweeper);
    // Second sweep: one MAD a port (0x001d); the ports Active and LinkUp keep their PortInfo.
    expect(asked(from).sort()).toEqual(['2/1:29', '2/2:29', '2/3:29', '5/1:29']);
    expect(steady.map((r) => [r.portState, r.physicalState, r.linkWidthActive])).toEqual(
      Array(4).fill([4, 5, 4]),
    );
    (sw.ports.get(2) as FakePort).errors64.LinkDownedCounter = 1n;
    from = umad.sent.length;
    const moved = sweep(sweeper);
    // One PortInfo (0x15), to the switch (an SMP's port is in its attribute modifier, not shown here).
    expect(asked(from).sort()).toEqual(['2/0:21', '2/1:29', '2/2:29', '2/3:29', '5/1:29']);
    expect(moved[1]?.errors?.LinkDownedCounter).toBe(1);
  });
});

const EDR_SWITCH_PORT: IbPort = {
  nodeGuid: '0x1',
  nodeName: 'sw',
  nodeType: 'switch',
  port: 2,
  lid: SWITCH_LID,
  width: '4x',
  speed: 'EDR',
  remote: null,
  cabledNow: true,
};

describe('PortSamplesControl (attribute 0x0010)', () => {
  it("is read once per switch port, its first port first; its Tick scales XmitWait's tick", () => {
    const { umad, sweeper } = subnet(0, { tick: 7, counterWidth: 4 });
    const first = sweep(sweeper);
    const asked = () => umad.sent.filter((m) => m.attributeId === 0x0010);
    expect(asked().map((m) => `${m.lid}/${m.port}`)).toEqual(['2/1', '2/2', '2/3']);
    expect(first.map((r) => [r.samplesTick, r.samplesCounterWidth])).toEqual([
      [7, 32],
      [7, 32],
      [7, 32],
      [null, null],
    ]);
    const second = sweep(sweeper);
    expect(asked()).toHaveLength(3);
    expect(second[2]?.samplesTick).toBe(7);
    // A tick: Tick + 1 symbol times; a 4x EDR symbol time moves 4 bytes at 12.5 GB/s.
    const s = portSample(EDR_SWITCH_PORT, second[1] as IbPortReading);
    expect(s.transmitWaitTickSeconds).toBeCloseTo((8 * 4) / 12.5e9, 20);
    expect(portSample(EDR_SWITCH_PORT, second[3] as IbPortReading).transmitWaitTickSeconds).toBeCloseTo(
      4 / 12.5e9,
      20,
    );
  });

  it('refused by a switch PMA: asked of its first port once, the Tick unknown and the port read whole', () => {
    const { umad, sweeper } = subnet(0, null);
    for (let k = 0; k < 3; k++) {
      const readings = sweep(sweeper);
      expect(readings.every((r) => r.samplesTick === null && r.failure === undefined)).toBe(true);
    }
    expect(umad.sent.filter((m) => m.attributeId === 0x0010).map((m) => `${m.lid}/${m.port}`)).toEqual([
      '2/1',
    ]);
  });
});

describe('clears before saturation (resets on, as OpenSM PerfMgr)', () => {
  it('clear exactly the narrow counters at half their maximum or more, right after reading them', () => {
    for (const [resets, capMask2, clears] of [
      [true, 0, true],
      [false, 0, false],
      [true, ADDITIONAL_PORT_COUNTERS_EXTENDED, false],
    ] as const) {
      const { sw, umad, sweeper } = subnet(capMask2, null);
      const p = sw.ports.get(2) as FakePort;
      Object.assign(p.errors, { LinkDownedCounter: 128, SymbolErrorCounter: 100, VL15Dropped: 40_000 });
      p.xmitWait = 2 ** 31;
      const r = sweep(sweeper, resets)[1] as IbPortReading;
      const sets = umad.sent.filter((m) => m.method === 0x02);
      expect(sets.map((m) => `${m.lid}/${m.port}`)).toEqual(clears ? ['2/2'] : []);
      expect(r.cleared).toEqual(clears ? ['LinkDownedCounter', 'VL15Dropped', 'PortXmitWait'] : []);
      // What the sweep read is the value before the clear; the clear took those counters alone.
      if (!clears) continue;
      expect(r.transmitWaitTicks).toBe(2n ** 31n);
      expect(r.errors?.LinkDownedCounter).toBe(128);
      expect([
        p.xmitWait,
        p.errors.LinkDownedCounter,
        p.errors.VL15Dropped,
        p.errors.SymbolErrorCounter,
      ]).toEqual([0, 0, 0, 100]);
    }
  });

  it('counts across its clears exactly: the hardware total, never lower than before, never saturated', () => {
    const max = 2 ** 32 - 1;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: 2, maxLength: 30 }),
        (steps) => {
          const { sw, sweeper } = subnet(0, null);
          const p = sw.ports.get(2) as FakePort;
          const ledger = new CounterLedger();
          let total = 0;
          let symbols = 0;
          let before = -1;
          steps.forEach((step, k) => {
            // The port counts `step` ticks since the last sweep and saturates as hardware does.
            p.xmitWait = Math.min(max, p.xmitWait + step);
            // At most half a 16-bit counter a sweep: a clear at half keeps it below its maximum.
            p.errors.SymbolErrorCounter = Math.min(
              65_535,
              (p.errors.SymbolErrorCounter ?? 0) + (step % 30_000),
            );
            total += step;
            symbols += step % 30_000;
            const r = sweep(sweeper, true)[1] as IbPortReading;
            const s = portSample(EDR_SWITCH_PORT, r);
            ledger.apply('sw/2', s, r, 1000 * k);
            expect(s.transmitWaitTicks).toBe(total);
            expect(s.errors?.symbolErrors).toBe(symbols);
            expect(s.transmitWaitTicks).toBeGreaterThanOrEqual(before);
            expect(s.saturatedSinceMs).toBeUndefined();
            before = s.transmitWaitTicks;
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
