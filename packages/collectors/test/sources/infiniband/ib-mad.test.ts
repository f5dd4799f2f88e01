// The MAD layouts of the port reader, checked against the spec's bit positions written here once
// more, independently of the encoder: IBA vol. 1 numbers a MAD's bits from the most significant of
// byte 0 (libibmad `fields.c` lists the same offsets). A random value of every field goes through
// our encoder and a plain bit reader, and through a plain bit writer and our decoder (oracles/ib-spec-bits.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATTR_PORT_COUNTERS,
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_INFO,
  encodePmaGet,
  encodeSmpGet,
  MAD_DATA_OFFSET,
  MAD_SIZE,
  writeMadHeader,
} from '../../../src/sources/infiniband/ib-mad.ts';
import {
  copyPortCountersErrors,
  PORT_COUNTERS_ERRORS,
  portXmitWait,
} from '../../../src/sources/infiniband/ib-pm-counters.ts';
import {
  decodePortInfo,
  linkSpeedName,
  linkWidthLanes,
  type PortInfo,
} from '../../../src/sources/infiniband/ib-port-info.ts';
import {
  FAILED_NO_ANSWER,
  FAILED_STATUS,
  HAS_PORT_COUNTERS,
  HAS_XMIT_WAIT,
  OFF,
  RECORD_SIZE,
  readRecord,
  setFailure,
} from '../../../src/sources/infiniband/ib-port-record.ts';
import {
  decodePortCounters,
  decodePortCountersExtended,
  encodePortCounters,
  encodePortCountersExtended,
  encodePortInfo,
  type PortCounters,
  type PortCountersExtended,
  readMadHeader,
} from '../../oracles/ib-mad-objects.ts';
import { getBits, setBits } from '../../oracles/ib-spec-bits.ts';

/** [bit offset from the attribute's start, width in bits], as the spec draws them. */
type Layout<T> = Record<keyof T, readonly [number, number]>;

const PORT_COUNTERS: Layout<PortCounters> = {
  PortSelect: [8, 8],
  CounterSelect: [16, 16],
  SymbolErrorCounter: [32, 16],
  LinkErrorRecoveryCounter: [48, 8],
  LinkDownedCounter: [56, 8],
  PortRcvErrors: [64, 16],
  PortRcvRemotePhysicalErrors: [80, 16],
  PortRcvSwitchRelayErrors: [96, 16],
  PortXmitDiscards: [112, 16],
  PortXmitConstraintErrors: [128, 8],
  PortRcvConstraintErrors: [136, 8],
  CounterSelect2: [144, 8],
  LocalLinkIntegrityErrors: [152, 4],
  ExcessiveBufferOverrunErrors: [156, 4],
  QP1Dropped: [160, 16],
  VL15Dropped: [176, 16],
  PortXmitData: [192, 32],
  PortRcvData: [224, 32],
  PortXmitPkts: [256, 32],
  PortRcvPkts: [288, 32],
  PortXmitWait: [320, 32],
};

const PORT_COUNTERS_EXTENDED: Layout<PortCountersExtended> = {
  PortSelect: [8, 8],
  CounterSelect: [16, 16],
  PortXmitData: [64, 64],
  PortRcvData: [128, 64],
  PortXmitPkts: [192, 64],
  PortRcvPkts: [256, 64],
  PortUnicastXmitPkts: [320, 64],
  PortUnicastRcvPkts: [384, 64],
  PortMulticastXmitPkts: [448, 64],
  PortMulticastRcvPkts: [512, 64],
};

const PORT_INFO: Layout<PortInfo> = {
  lid: [128, 16],
  masterSmLid: [144, 16],
  capabilityMask: [160, 32],
  localPortNum: [224, 8],
  linkWidthEnabled: [232, 8],
  linkWidthSupported: [240, 8],
  linkWidthActive: [248, 8],
  linkSpeedSupported: [256, 4],
  portState: [260, 4],
  physicalState: [264, 4],
  linkDownDefaultState: [268, 4],
  mKeyProtectBits: [272, 2],
  lmc: [277, 3],
  linkSpeedActive: [280, 4],
  linkSpeedEnabled: [284, 4],
  linkSpeedExtActive2: [449, 2],
  linkSpeedExtSupported2: [451, 2],
  linkSpeedExtEnabled2: [453, 3],
  capabilityMask2: [480, 16],
  linkSpeedExtActive: [496, 4],
  linkSpeedExtSupported: [500, 4],
  linkSpeedExtEnabled: [507, 5],
};

/** A record of random field values that fit their widths; numbers or bigints as the type has them. */
function fieldsOf<T>(layout: Layout<T>, big: (name: keyof T) => boolean): fc.Arbitrary<T> {
  const entries = Object.entries(layout) as [keyof T & string, readonly [number, number]][];
  return fc.record(
    Object.fromEntries(
      entries.map(([name, [, width]]) => [
        name,
        big(name)
          ? fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n })
          : fc.integer({ min: 0, max: 2 ** width - 1 }),
      ]),
    ) as { [K in keyof T]: fc.Arbitrary<T[K]> },
  ) as fc.Arbitrary<T>;
}

const noise = fc.uint8Array({ minLength: MAD_SIZE, maxLength: MAD_SIZE }).map((a) => Buffer.from(a));

function roundTrips<T extends object>(
  layout: Layout<T>,
  big: (name: keyof T) => boolean,
  encode: (buf: Buffer, value: T) => void,
  decode: (buf: Buffer) => T,
): void {
  fc.assert(
    fc.property(fieldsOf(layout, big), noise, noise, (value, under, under2) => {
      // Ours → the spec's bits.
      encode(under, value);
      for (const [name, [offset, width]] of Object.entries(layout) as [keyof T, [number, number]][]) {
        expect([name, getBits(under, MAD_DATA_OFFSET, offset, width)]).toEqual([
          name,
          BigInt(value[name] as number | bigint),
        ]);
      }
      expect(decode(under)).toEqual(value);
      // The spec's bits → ours, whatever the bytes around them hold.
      for (const [name, [offset, width]] of Object.entries(layout) as [keyof T, [number, number]][]) {
        setBits(under2, MAD_DATA_OFFSET, offset, width, BigInt(value[name] as number | bigint));
      }
      expect(decode(under2)).toEqual(value);
    }),
    { numRuns: 300 },
  );
}

describe('MAD attribute layouts (IBA bit positions)', () => {
  it('PortCounters: every counter, the two 4-bit ones sharing a byte included', () => {
    roundTrips(PORT_COUNTERS, () => false, encodePortCounters, decodePortCounters);
    // The sweeper's copy of the error counters and XmitWait says the same as the decoder.
    fc.assert(
      fc.property(
        fieldsOf(PORT_COUNTERS, () => false),
        noise,
        (value, mad) => {
          encodePortCounters(mad, value);
          const out = Buffer.alloc(2 * PORT_COUNTERS_ERRORS.length);
          copyPortCountersErrors(mad, out, 0);
          expect(PORT_COUNTERS_ERRORS.map((_, k) => out.readUInt16BE(2 * k))).toEqual(
            PORT_COUNTERS_ERRORS.map((name) => value[name]),
          );
          expect(portXmitWait(mad)).toBe(value.PortXmitWait);
        },
      ),
    );
  });

  it('PortCountersExtended: 64-bit counters exactly, past 2^53', () => {
    roundTrips(
      PORT_COUNTERS_EXTENDED,
      (name) => name !== 'PortSelect' && name !== 'CounterSelect',
      encodePortCountersExtended,
      decodePortCountersExtended,
    );
  });

  it('PortInfo: states, widths, speeds and capability masks, bit-packed nibbles and all', () => {
    roundTrips(PORT_INFO, () => false, encodePortInfo, decodePortInfo);
  });

  it('the common header and the Gets the reader sends', () => {
    fc.assert(
      fc.property(
        fc.record({
          mgmtClass: fc.integer({ min: 0, max: 255 }),
          classVersion: fc.integer({ min: 0, max: 255 }),
          method: fc.integer({ min: 0, max: 255 }),
          status: fc.integer({ min: 0, max: 0xffff }),
          transactionId: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
          attributeId: fc.integer({ min: 0, max: 0xffff }),
          attributeModifier: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        }),
        noise,
        (header, mad) => {
          writeMadHeader(mad, header);
          expect(readMadHeader(mad)).toEqual(header);
          expect(mad[0]).toBe(1); // BaseVersion
          expect(getBits(mad, 0, 96, 32)).toBe(BigInt(header.transactionId)); // TID's low half
          expect(getBits(mad, 0, 160, 32)).toBe(BigInt(header.attributeModifier));
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 0, max: 254 }),
        noise,
        (tid, port, mad) => {
          encodePmaGet(mad, tid, ATTR_PORT_COUNTERS_EXTENDED, port);
          expect(readMadHeader(mad)).toEqual({
            mgmtClass: 0x04,
            classVersion: 1,
            method: 0x01,
            status: 0,
            transactionId: tid,
            attributeId: ATTR_PORT_COUNTERS_EXTENDED,
            attributeModifier: 0,
          });
          expect(decodePortCountersExtended(mad).PortSelect).toBe(port);
          expect(mad.subarray(24, 64).every((b) => b === 0)).toBe(true);
          encodeSmpGet(mad, tid, ATTR_PORT_INFO, port);
          expect(readMadHeader(mad)).toMatchObject({
            mgmtClass: 0x01,
            method: 0x01,
            attributeModifier: port,
          });
          expect(mad.subarray(24, MAD_SIZE).every((b) => b === 0)).toBe(true); // M_Key 0, no data
        },
      ),
    );
    expect(ATTR_PORT_COUNTERS).toBe(0x12);
  });
});

describe('width and speed names', () => {
  it('lanes of LinkWidthActive', () => {
    expect([1, 2, 4, 8, 16, 0, 3].map(linkWidthLanes)).toEqual([1, 4, 8, 12, 2, null, null]);
  });

  it('names the speed as ibnetdiscover does, extended speeds only where the capability mask has them', () => {
    const ext = 0x4000;
    const ext2 = 0x4000 | 0x8000;
    const at = (linkSpeedActive: number, linkSpeedExtActive = 0, linkSpeedExtActive2 = 0) => ({
      linkSpeedActive,
      linkSpeedExtActive,
      linkSpeedExtActive2,
    });
    expect(linkSpeedName(at(1), 0, 0)).toBe('SDR');
    expect(linkSpeedName(at(2), ext, 0)).toBe('DDR');
    expect(linkSpeedName(at(4), ext, 0)).toBe('QDR');
    expect(linkSpeedName(at(4), 0, 0, 1)).toBe('FDR10');
    expect(linkSpeedName(at(4, 1), ext, 0)).toBe('FDR');
    expect(linkSpeedName(at(4, 2), ext, 0)).toBe('EDR');
    expect(linkSpeedName(at(4, 4), ext, 0)).toBe('HDR');
    expect(linkSpeedName(at(4, 8), ext, 0)).toBe('NDR');
    expect(linkSpeedName(at(4, 8, 1), ext2, 0x0800)).toBe('XDR');
    // Without IsExtendedSpeedsSupported the extended fields are reserved: the base speed counts.
    expect(linkSpeedName(at(4, 2), 0, 0)).toBe('QDR');
    // XDR needs IsExtendedSpeeds2Supported in CapabilityMask2.
    expect(linkSpeedName(at(4, 8, 1), ext2, 0)).toBe('NDR');
    expect(linkSpeedName(at(4, 3), ext, 0)).toBeNull();
    expect(linkSpeedName(at(0), 0, 0)).toBeNull();
  });
});

describe('port records', () => {
  it('an attribute not read is null, never 0, and its failure says why', () => {
    const records = Buffer.alloc(2 * RECORD_SIZE);
    setFailure(records, RECORD_SIZE, 0, FAILED_NO_ANSWER);
    setFailure(records, RECORD_SIZE, 1, FAILED_STATUS, 0x001c);
    const { countersExtended, cleared, ...empty } = readRecord(records, 0, 3);
    expect(Object.values(empty).every((v) => v === null)).toBe(true);
    expect([countersExtended, cleared]).toEqual([false, []]);
    expect(readRecord(records, 1, 3).failure).toBe(
      'PortInfo: no answer after 3 tries; PortCounters: MAD status 0x001c (invalid attribute or modifier)',
    );
  });

  it('error counters come back under the names they were written in; XmitWait only where the PMA has it', () => {
    const records = Buffer.alloc(RECORD_SIZE);
    records[OFF.flags] = HAS_PORT_COUNTERS;
    PORT_COUNTERS_ERRORS.forEach((_, k) => {
      records.writeUInt16BE(1000 + k, OFF.errors + 2 * k);
    });
    records.writeUInt32BE(77, OFF.transmitWait);
    const reading = readRecord(records, 0, 1);
    expect(reading.errors).toEqual(
      Object.fromEntries(PORT_COUNTERS_ERRORS.map((name, k) => [name, 1000 + k])),
    );
    // A PMA whose ClassPortInfo does not claim PortXmitWait leaves that field reserved: unknown, not 0.
    expect(reading.transmitWaitTicks).toBeNull();
    records[OFF.flags] = HAS_PORT_COUNTERS | HAS_XMIT_WAIT;
    expect(readRecord(records, 0, 1).transmitWaitTicks).toBe(77n);
  });
});
