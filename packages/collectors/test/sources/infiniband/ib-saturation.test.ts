// Narrow PortCounters saturate (stick at the maximum of their width, never wrap): from the first reading at
// the maximum the counter is unknown, with the reason in the exposition, never 0 and never a partial step.
import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import { tableFromIPC } from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFabricRegistry } from '../../../src/fabric/fabric-registry.ts';
import type { FabricSource } from '../../../src/fabric/port-sample.ts';
import { CounterLedger } from '../../../src/sources/infiniband/ib-counter-ledger.ts';
import type { IbPort } from '../../../src/sources/infiniband/ib-discovery.ts';
import { PORT_COUNTERS_ERRORS } from '../../../src/sources/infiniband/ib-pm-counters.ts';
import type { IbPortReading } from '../../../src/sources/infiniband/ib-port-record.ts';
import { portSample, saturatedFields } from '../../../src/sources/infiniband/ib-port-sample.ts';
import { find, type Sample, samples, value } from '../../helpers.ts';

const SW = '0x0011750101000001';
const HOST = '0x0011750100000001';
const port = (
  guid: string,
  name: string,
  type: IbPort['nodeType'],
  n: number,
  far: [string, string],
): IbPort => ({
  nodeGuid: guid,
  nodeName: name,
  nodeType: type,
  port: n,
  lid: type === 'switch' ? 2 : 1,
  width: '4x',
  speed: 'EDR',
  remote: {
    nodeGuid: far[0],
    nodeName: far[1],
    portNumber: 1,
    nodeType: type === 'switch' ? 'host' : 'switch',
  },
  cabledNow: true,
});
const SWITCH_PORT = port(SW, 'sw1', 'switch', 1, [HOST, 'h1']);
const HOST_PORT = port(HOST, 'h1', 'host', 1, [SW, 'sw1']);

const ZERO_ERRORS = Object.fromEntries(PORT_COUNTERS_ERRORS.map((n) => [n, 0])) as NonNullable<
  IbPortReading['errors']
>;

/** A reading of an active 4x EDR port: data counting at `k` seconds, the narrow counters given. */
function reading(
  k: number,
  narrow: { wait?: bigint; errors?: Partial<typeof ZERO_ERRORS> } = {},
): IbPortReading {
  return {
    portState: 4,
    physicalState: 5,
    linkWidthActive: 4,
    linkSpeedActive: 'EDR',
    transmitBytes: BigInt(k) * 10_000_000_000n,
    receiveBytes: BigInt(k) * 10_000_000_000n,
    transmitPackets: BigInt(k) * 1_000_000n,
    receivePackets: BigInt(k) * 1_000_000n,
    transmitWaitTicks: narrow.wait ?? 0n,
    errors: { ...ZERO_ERRORS, ...narrow.errors },
    countersExtended: false,
    samplesTick: null,
    samplesCounterWidth: null,
    cleared: [],
    countersReadAtMs: null,
  };
}

/** Field name and width of every narrow counter of basic PortCounters (IBA 16.1.3.5). */
const NARROW: readonly (readonly [string, string, number])[] = [
  ['PortXmitWait', 'transmitWait', 32],
  ['SymbolErrorCounter', 'symbolErrors', 16],
  ['LinkErrorRecoveryCounter', 'linkErrorRecovery', 8],
  ['LinkDownedCounter', 'linkDowned', 8],
  ['PortRcvErrors', 'receiveErrors', 16],
  ['PortRcvRemotePhysicalErrors', 'receiveRemotePhysicalErrors', 16],
  ['PortRcvSwitchRelayErrors', 'receiveSwitchRelayErrors', 16],
  ['PortXmitDiscards', 'transmitDiscards', 16],
  ['PortXmitConstraintErrors', 'transmitConstraintErrors', 8],
  ['PortRcvConstraintErrors', 'receiveConstraintErrors', 8],
  ['LocalLinkIntegrityErrors', 'localLinkIntegrityErrors', 4],
  ['ExcessiveBufferOverrunErrors', 'excessiveBufferOverrunErrors', 4],
  ['VL15Dropped', 'vl15Dropped', 16],
];

function withCounter(name: string, v: number, k = 1): IbPortReading {
  return name === 'PortXmitWait' ? reading(k, { wait: BigInt(v) }) : reading(k, { errors: { [name]: v } });
}

function counterOf(name: string, field: string, r: IbPortReading): number | undefined {
  const s = portSample(SWITCH_PORT, r);
  return name === 'PortXmitWait' ? s.transmitWaitTicks : (s.errors as Record<string, number>)[field];
}

describe("a port's sample", () => {
  it("carries PortInfo's physical state as read, and none where PortInfo was not read", () => {
    expect(portSample(SWITCH_PORT, { ...reading(1), portState: 1, physicalState: 2 }).physicalState).toBe(2);
    const unread = portSample(SWITCH_PORT, { ...reading(1), portState: null, physicalState: null });
    expect(unread).not.toHaveProperty('physicalState');
  });
});

describe('a saturated narrow counter', () => {
  it('of any width is unknown (NaN, reported) at its maximum and itself below it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NARROW),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ([name, field, width], f) => {
          const max = 2 ** width - 1;
          const below = Math.min(max - 1, Math.floor(f * max));
          expect(counterOf(name, field, withCounter(name, max))).toBeNaN();
          expect(saturatedFields(withCounter(name, max))).toEqual([field]);
          expect(counterOf(name, field, withCounter(name, below))).toBe(below);
          expect(saturatedFields(withCounter(name, below))).toEqual([]);
        },
      ),
    );
  });

  it('64-bit counters (AdditionalPortCountersExtended) are not saturated at a narrow maximum', () => {
    const r = {
      ...reading(1, { wait: 2n ** 32n - 1n, errors: { LinkDownedCounter: 255 } }),
      countersExtended: true,
    };
    const s = portSample(SWITCH_PORT, r);
    expect(s.transmitWaitTicks).toBe(2 ** 32 - 1);
    expect(s.errors?.linkDowned).toBe(255);
    expect(saturatedFields({ ...r, transmitWaitTicks: 2n ** 64n - 1n })).toEqual(['transmitWait']);
  });

  it('keeps the time of its first saturated reading while it stays there, and forgets it once it counts', () => {
    const ledger = new CounterLedger();
    const since = (r: IbPortReading, at: number) => {
      const s = portSample(SWITCH_PORT, r);
      ledger.apply('sw/1', s, r, at);
      return s.saturatedSinceMs;
    };
    const max = reading(1, { wait: 2n ** 32n - 1n, errors: { LinkDownedCounter: 255 } });
    expect(since(reading(0), 1000)).toBeUndefined();
    expect(since(max, 2000)).toEqual({ transmitWait: 2000, linkDowned: 2000 });
    expect(since(max, 3000)).toEqual({ transmitWait: 2000, linkDowned: 2000 });
    expect(since(reading(4, { wait: 5n }), 4000)).toBeUndefined();
    expect(since(max, 5000)).toEqual({ transmitWait: 5000, linkDowned: 5000 });
    ledger.retain(new Set());
    expect(since(max, 6000)).toEqual({ transmitWait: 6000, linkDowned: 6000 });
  });
});

/** A source of one cable sw1/1 ↔ h1/1 whose switch end reads `switchReadings` in turn, a second apart. */
function cable(switchReadings: IbPortReading[]): FabricSource {
  const ledger = new CounterLedger();
  let k = 0;
  return {
    name: 'test',
    read: async () => {
      const at = 10_000 + 1000 * k;
      const r = switchReadings[k] as IbPortReading;
      const host = reading(k);
      k++;
      const ports = [portSample(SWITCH_PORT, r), portSample(HOST_PORT, host)];
      ledger.apply('sw', ports[0] as never, r, at);
      return { fabric: 'f', fabricType: 'infiniband', countersReadAtMs: at, ports };
    },
  };
}

describe('the exposition of a saturated counter', () => {
  it('says which and since when from the first saturated reading; its value and rate are left out, never 0', async () => {
    const max = 2n ** 32n - 1n;
    // XmitWait climbs at 30 % of a 4x EDR port's ticks, then sticks at 2^32 − 1; LinkDowned sticks at 255.
    const waiting = (k: number) => BigInt(Math.round(k * 0.3 * 3.125e9));
    const reads = [
      reading(0, { wait: waiting(0) }),
      reading(1, { wait: waiting(1) }),
      reading(2, { wait: max, errors: { LinkDownedCounter: 255 } }),
      reading(3, { wait: max, errors: { LinkDownedCounter: 255 } }),
    ];
    const registry = createFabricRegistry({ source: cable(reads) });
    const out: Sample[][] = [];
    for (const _ of reads) out.push(samples(await registry.scrape()));
    const sw = { node_guid: SW, port: '1' };
    expect(value(out[1] as Sample[], EDGE.wait, sw)).toBeCloseTo(0.3, 6);
    for (const [i, s] of [
      [2, out[2]],
      [3, out[3]],
    ] as const) {
      const list = s as Sample[];
      // The wait share: no figure from the first saturated reading (not the partial step to the ceiling).
      expect(find(list, EDGE.wait, sw), `sweep ${i}`).toEqual([]);
      expect(find(list, 'fabscope_port_transmit_wait_total', sw)).toEqual([]);
      expect(find(list, 'fabscope_port_link_downed_total', sw)).toEqual([]);
      expect(value(list, EDGE.saturated, { ...sw, field: 'transmitWait' })).toBe(12);
      expect(value(list, EDGE.saturated, { ...sw, field: 'linkDowned' })).toBe(12);
      // LinkDowned stays a field the port reports, unknown now: NaN, never an absent (read as 0) field.
      expect(value(list, EDGE.portErrors, { ...sw, field: 'linkDowned' })).toBeNaN();
      expect(value(list, EDGE.errorFields, { field: 'linkDowned' })).toBe(2);
    }
    expect(find(out[1] as Sample[], EDGE.saturated)).toEqual([]);
  });
});

describe('the Arrow answer (what the embedded store reads)', () => {
  it('carries a saturated counter as NaN from its first saturated reading, the others as read', async () => {
    const names = new Set(['fabscope_port_transmit_wait_total', 'fabscope_port_link_downed_total']);
    const max = 2n ** 32n - 1n;
    const registry = createFabricRegistry({
      source: cable([
        reading(0, { wait: 7n }),
        reading(1, { wait: max, errors: { LinkDownedCounter: 255 } }),
      ]),
    });
    const columns = [];
    for (let k = 0; k < 2; k++) {
      const answer = await registry.answer({ names, arrow: true });
      if (!('mediaType' in answer)) throw new Error('no Arrow answer');
      const table = tableFromIPC(answer.body);
      const row = (table.getChild('node_guid').toArray() as string[]).indexOf(SW);
      columns.push([...names].map((name) => (table.getChild(name).toArray() as Float64Array)[row] as number));
    }
    expect(columns[0]).toEqual([7, 0]);
    expect(columns[1]).toEqual([Number.NaN, Number.NaN]);
  });
});
