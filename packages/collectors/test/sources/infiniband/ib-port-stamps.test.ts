// Each port stamped with the instant its counters were read, not the sweep's: a sweep of many ports (or a
// slow PMA) reads its first and last ports far apart, and a rate over the sweep's Δt would be off by that.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EdgeRates } from '../../../src/fabric/edge-rates.ts';
import { createFabricRegistry } from '../../../src/fabric/fabric-registry.ts';
import type { FabricSnapshot, PortSample } from '../../../src/fabric/port-sample.ts';
import { readRecord } from '../../../src/sources/infiniband/ib-port-record.ts';
import { portSample } from '../../../src/sources/infiniband/ib-port-sample.ts';
import { IbSweeper } from '../../../src/sources/infiniband/ib-sweeper.ts';
import { type FakeAgent, FakeUmad, fakePort } from '../../oracles/fake-pma.ts';

const EPOCH_OFFSET_MS = 1_780_000_000_000;
const ATTR_PORT_COUNTERS_EXTENDED = 0x001d;
const ATTR_PORT_COUNTERS = 0x0012;

interface TimedMad {
  lid: number;
  attributeId: number;
  port: number;
  sentAt: number;
  answeredAt: number;
}

/** The fake PMAs answering in order, each answer `latencies[k]` ms (cycled) after the one before. */
class TimedUmad extends FakeUmad {
  nowMs = 0;
  readonly mads: TimedMad[] = [];
  /** The MADs whose answers are queued, in the order they come. */
  private readonly waiting: TimedMad[] = [];
  private polls = 0;

  constructor(
    agents: Map<number, FakeAgent>,
    private readonly latencies: readonly number[],
  ) {
    super(agents);
  }

  override send(agent: number, umad: Buffer, lid: number): boolean {
    this.nowMs += 0.01;
    const ok = super.send(agent, umad, lid);
    const { attributeId, port } = this.sent[this.sent.length - 1] as (typeof this.sent)[0];
    const mad = { lid, attributeId, port, sentAt: this.nowMs, answeredAt: Number.NaN };
    this.mads.push(mad);
    if (this.agents.has(lid)) this.waiting.push(mad);
    return ok;
  }

  override recv(umad: Buffer): number {
    this.nowMs += this.latencies[this.polls++ % this.latencies.length] as number;
    const agent = super.recv(umad);
    if (agent >= 0) (this.waiting.shift() as TimedMad).answeredAt = this.nowMs;
    return agent;
  }
}

const SWITCH_LID = 2;
const PORTS = [1, 2, 3, 4];

function sweepTimed(latencies: readonly number[]) {
  const sw: FakeAgent = { capMask: 0x1300, capMask2: 0, ports: new Map(PORTS.map((n) => [n, fakePort()])) };
  const umad = new TimedUmad(new Map([[SWITCH_LID, sw]]), latencies);
  const sweeper = new IbSweeper(umad, () => ({ now: () => umad.nowMs, epochOffsetMs: EPOCH_OFFSET_MS }));
  sweeper.setTargets(new Uint16Array(PORTS.length).fill(SWITCH_LID), Uint8Array.from(PORTS));
  const outcome = sweeper.sweep({ outstanding: 2, timeoutMs: 1e9, retries: 0 });
  return { umad, outcome, readings: PORTS.map((_, i) => readRecord(outcome.records, i, 1)) };
}

describe('a MAD sweep stamps each port with its own reading instant', () => {
  it("is the middle of its PortCountersExtended MAD's round trip, within it, whatever the latencies", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 50, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (lat) => {
          const { umad, outcome, readings } = sweepTimed(lat);
          PORTS.forEach((port, i) => {
            const mad = umad.mads.find(
              (m) => m.attributeId === ATTR_PORT_COUNTERS_EXTENDED && m.port === port,
            );
            const stamp = readings[i]?.countersReadAtMs as number;
            expect(stamp).toBe(EPOCH_OFFSET_MS + ((mad?.sentAt as number) + (mad?.answeredAt as number)) / 2);
            expect(stamp).toBeGreaterThanOrEqual(EPOCH_OFFSET_MS + (mad?.sentAt as number));
            expect(stamp).toBeLessThanOrEqual(EPOCH_OFFSET_MS + (mad?.answeredAt as number));
            // The sample the collector makes of it keeps it.
            expect(portSample(EDR_PORT, readings[i] as never).countersReadAtMs).toBe(stamp);
          });
          // The sweep's own time is still its middle, for what has no port.
          const first = EPOCH_OFFSET_MS + (umad.mads[0]?.sentAt as number) - 0.01;
          expect(outcome.readAtMs).toBeCloseTo(first + (outcome.durationSeconds * 1000) / 2, 6);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('apart by the time between their answers: a slow sweep does not date its first and last port alike', () => {
    const { readings } = sweepTimed([100]);
    const stamps = readings.map((r) => r.countersReadAtMs as number);
    for (let i = 1; i < stamps.length; i++)
      expect(stamps[i] as number).toBeGreaterThan(stamps[i - 1] as number);
    expect((stamps[3] as number) - (stamps[0] as number)).toBeGreaterThanOrEqual(300);
  });

  it("falls back to PortCounters' answer when PortCountersExtended gave none; null when neither did", () => {
    const sw: FakeAgent = { capMask: 0x1300, capMask2: 0, ports: new Map([[1, fakePort()]]) };
    const umad = new TimedUmad(new Map([[SWITCH_LID, sw]]), [5]);
    const refuseExtended = umad.send.bind(umad);
    umad.send = (agent, buf, lid) => {
      // A PMA that drops PortCountersExtended: the request is sent, no answer comes.
      if (buf.readUInt16BE(umad.headerSize + 16) === ATTR_PORT_COUNTERS_EXTENDED) return true;
      return refuseExtended(agent, buf, lid);
    };
    const sweeper = new IbSweeper(umad, () => ({ now: () => umad.nowMs, epochOffsetMs: EPOCH_OFFSET_MS }));
    sweeper.setTargets(Uint16Array.of(SWITCH_LID, 9), Uint8Array.of(1, 1));
    const outcome = sweeper.sweep({ outstanding: 4, timeoutMs: 20, retries: 0 });
    const [answered, silent] = [0, 1].map((i) => readRecord(outcome.records, i, 1));
    const counters = umad.mads.find((m) => m.attributeId === ATTR_PORT_COUNTERS && m.lid === SWITCH_LID);
    expect(answered?.transmitBytes).toBeNull();
    expect(answered?.countersReadAtMs).toBe(
      EPOCH_OFFSET_MS + ((counters?.sentAt as number) + (counters?.answeredAt as number)) / 2,
    );
    expect(silent?.countersReadAtMs).toBeNull();
  });
});

const EDR_PORT = {
  nodeGuid: '0x1',
  nodeName: 'sw',
  nodeType: 'switch' as const,
  port: 1,
  lid: SWITCH_LID,
  width: '4x',
  speed: 'EDR',
  remote: null,
  cabledNow: true,
};

function sample(guid: string, bytes: number, readAtMs: number): PortSample {
  return {
    nodeGuid: guid,
    nodeName: guid,
    nodeType: 'switch',
    portNumber: 1,
    lid: 1,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    remote: null,
    transmitBytes: bytes,
    receiveBytes: bytes,
    transmitPackets: bytes / 4096,
    receivePackets: bytes / 4096,
    transmitWaitTicks: 0,
    countersReadAtMs: readAtMs,
  };
}

describe("rates over each port's own Δt", () => {
  // Two sweeps stamped at their middles, 500 ms apart; port a was read 1 s apart, port b 250 ms apart.
  const sweeps: FabricSnapshot[] = [
    {
      fabric: 'f',
      fabricType: 'infiniband',
      countersReadAtMs: 1500,
      ports: [sample('a', 0, 1000), sample('b', 0, 1750)],
    },
    {
      fabric: 'f',
      fabricType: 'infiniband',
      countersReadAtMs: 2000,
      ports: [sample('a', 10e9, 2000), sample('b', 2.5e9, 2000)],
    },
  ];

  it("divide each port's counter step by its own interval, not the sweep's", () => {
    const edge = new EdgeRates();
    edge.update(sweeps[0] as FabricSnapshot, 1500);
    const { rates } = edge.update(sweeps[1] as FabricSnapshot, 2000);
    expect(rates.map((r) => r?.transmitBytesPerSecond)).toEqual([10e9, 10e9]);
  });

  it("write each port's counters with its own timestamp in the exposition", async () => {
    let next = 0;
    const { scrape } = createFabricRegistry({
      source: { name: 'stamps', read: async () => sweeps[Math.min(next++, 1)] as FabricSnapshot },
    });
    await scrape();
    const lines = (await scrape())
      .split('\n')
      .filter((l) => l.startsWith('fabscope_port_data_transmitted_bytes_total{'));
    expect(lines).toHaveLength(2);
    expect(
      lines
        .find((l) => l.includes('"a"'))
        ?.split(' ')
        .at(-1),
    ).toBe('2000');
    expect(
      lines
        .find((l) => l.includes('"b"'))
        ?.split(' ')
        .at(-1),
    ).toBe('2000');
    next = 0;
    const first = (await scrape())
      .split('\n')
      .filter((l) => l.startsWith('fabscope_port_data_transmitted_bytes_total{'));
    expect(first.map((l) => l.split(' ').at(-1))).toEqual(['1000', '1750']);
  });
});
