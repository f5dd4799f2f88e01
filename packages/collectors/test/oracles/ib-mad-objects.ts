// The MAD attributes as whole objects, for the layout tests: the sweeper itself reads single
// fields of the answers (ib-pm-counters.ts, ib-port-info.ts) and never makes these objects.
import { MAD_DATA_OFFSET, type MadHeader } from '../../src/sources/infiniband/ib-mad.ts';
import { LLI_EBO_BYTE, PC_LAYOUT } from '../../src/sources/infiniband/ib-pm-counters.ts';
import type { PortInfo } from '../../src/sources/infiniband/ib-port-info.ts';

/** PortCounters (attribute 0x0012), fields named as perfquery prints them. */
export type PortCounters = Record<
  keyof typeof PC_LAYOUT | 'LocalLinkIntegrityErrors' | 'ExcessiveBufferOverrunErrors',
  number
>;
const PC_ENTRIES = Object.entries(PC_LAYOUT) as [keyof typeof PC_LAYOUT, readonly [number, 1 | 2 | 4]][];

export const PCE_COUNTERS = [
  'PortXmitData',
  'PortRcvData',
  'PortXmitPkts',
  'PortRcvPkts',
  'PortUnicastXmitPkts',
  'PortUnicastRcvPkts',
  'PortMulticastXmitPkts',
  'PortMulticastRcvPkts',
] as const;
/** PortCountersExtended (attribute 0x001D): 64-bit data (4-octet words) and packet counters. */
export type PortCountersExtended = { PortSelect: number; CounterSelect: number } & Record<
  (typeof PCE_COUNTERS)[number],
  bigint
>;

export function readMadHeader(mad: Buffer): MadHeader {
  return {
    mgmtClass: mad[1] as number,
    classVersion: mad[2] as number,
    method: mad[3] as number,
    status: mad.readUInt16BE(4),
    transactionId: mad.readUInt32BE(12),
    attributeId: mad.readUInt16BE(16),
    attributeModifier: mad.readUInt32BE(20),
  };
}

export function decodePortCounters(data: Buffer, at = MAD_DATA_OFFSET): PortCounters {
  const c = {} as PortCounters;
  for (const [name, [offset, width]] of PC_ENTRIES) c[name] = data.readUIntBE(at + offset, width);
  const packed = data[at + LLI_EBO_BYTE] as number;
  c.LocalLinkIntegrityErrors = packed >> 4;
  c.ExcessiveBufferOverrunErrors = packed & 0x0f;
  return c;
}

export function encodePortCounters(data: Buffer, c: PortCounters, at = MAD_DATA_OFFSET): void {
  for (const [name, [offset, width]] of PC_ENTRIES) data.writeUIntBE(c[name], at + offset, width);
  data[at + LLI_EBO_BYTE] =
    ((c.LocalLinkIntegrityErrors & 0x0f) << 4) | (c.ExcessiveBufferOverrunErrors & 0x0f);
}

export function decodePortCountersExtended(data: Buffer, at = MAD_DATA_OFFSET): PortCountersExtended {
  const c = {
    PortSelect: data[at + 1] as number,
    CounterSelect: data.readUInt16BE(at + 2),
  } as PortCountersExtended;
  PCE_COUNTERS.forEach((name, i) => {
    c[name] = data.readBigUInt64BE(at + 8 + 8 * i);
  });
  return c;
}

export function encodePortCountersExtended(
  data: Buffer,
  c: PortCountersExtended,
  at = MAD_DATA_OFFSET,
): void {
  data[at + 1] = c.PortSelect;
  data.writeUInt16BE(c.CounterSelect, at + 2);
  PCE_COUNTERS.forEach((name, i) => {
    data.writeBigUInt64BE(c[name], at + 8 + 8 * i);
  });
}

/** Writes the fields of `p` into PortInfo bytes (the others untouched): the tests' and a fake SMA's. */
export function encodePortInfo(data: Buffer, p: PortInfo, at = MAD_DATA_OFFSET): void {
  data.writeUInt16BE(p.lid, at + 16);
  data.writeUInt16BE(p.masterSmLid, at + 18);
  data.writeUInt32BE(p.capabilityMask >>> 0, at + 20);
  data[at + 28] = p.localPortNum;
  data[at + 29] = p.linkWidthEnabled;
  data[at + 30] = p.linkWidthSupported;
  data[at + 31] = p.linkWidthActive;
  data[at + 32] = ((p.linkSpeedSupported & 0x0f) << 4) | (p.portState & 0x0f);
  data[at + 33] = ((p.physicalState & 0x0f) << 4) | (p.linkDownDefaultState & 0x0f);
  data[at + 34] = ((p.mKeyProtectBits & 0x03) << 6) | ((data[at + 34] as number) & 0x38) | (p.lmc & 0x07);
  data[at + 35] = ((p.linkSpeedActive & 0x0f) << 4) | (p.linkSpeedEnabled & 0x0f);
  data[at + 56] =
    ((data[at + 56] as number) & 0x80) |
    ((p.linkSpeedExtActive2 & 0x03) << 5) |
    ((p.linkSpeedExtSupported2 & 0x03) << 3) |
    (p.linkSpeedExtEnabled2 & 0x07);
  data.writeUInt16BE(p.capabilityMask2, at + 60);
  data[at + 62] = ((p.linkSpeedExtActive & 0x0f) << 4) | (p.linkSpeedExtSupported & 0x0f);
  data[at + 63] = ((data[at + 63] as number) & 0xe0) | (p.linkSpeedExtEnabled & 0x1f);
}
