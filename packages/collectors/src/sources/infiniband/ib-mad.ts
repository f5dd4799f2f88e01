/**
 * The InfiniBand MADs the port reader sends and the answers it reads, byte for byte (IBA vol. 1:
 * 13.4.2 the common MAD header, 14.2.5.6 PortInfo, 16.1.3.5 PortCounters, 16.1.4.11
 * PortCountersExtended; field offsets as libibmad `fields.c` names them). Pure: no I/O.
 *
 * Every MAD is 256 bytes. The common header (24 bytes, big-endian):
 * BaseVersion, MgmtClass, ClassVersion, R|Method, Status(2), ClassSpecific(2), TransactionID(8),
 * AttributeID(2), reserved(2), AttributeModifier(4). The performance class has 40 reserved bytes
 * after it; a LID-routed SMP has its M_Key (8) and 32 reserved bytes: both carry their attribute
 * at offset 64.
 */

export const MAD_SIZE = 256;
export const MAD_DATA_OFFSET = 64;

export const MGMT_CLASS_SUBN_LID_ROUTED = 0x01;
export const MGMT_CLASS_PERF = 0x04;
export const METHOD_GET = 0x01;
export const METHOD_GET_RESP = 0x81;

export const ATTR_PORT_INFO = 0x0015;
/** The performance class's ClassPortInfo: its CapabilityMask says which counters the PMA has. */
export const ATTR_CLASS_PORT_INFO = 0x0001;
export const ATTR_PORT_COUNTERS = 0x0012;
export const ATTR_PORT_COUNTERS_EXTENDED = 0x001d;
/** Mellanox's vendor SMP attribute ExtendedPortInfo: the only place FDR10 shows (libibmad mad.h). */
export const ATTR_MLNX_EXT_PORT_INFO = 0xff90;

/** QP and Q_Key of the general services interface (performance class); SMPs go to QP 0. */
export const GSI_QP = 1;
export const GSI_QKEY = 0x80010000;
export const SMI_QP = 0;

export interface MadHeader {
  mgmtClass: number;
  classVersion: number;
  /** With the response bit (0x80). */
  method: number;
  status: number;
  /** The low 32 bits: the kernel (or umad2sim) owns the high ones to find the sending agent. */
  transactionId: number;
  attributeId: number;
  attributeModifier: number;
}

export function writeMadHeader(mad: Buffer, h: MadHeader): void {
  mad.fill(0, 0, MAD_DATA_OFFSET);
  mad[0] = 1; // BaseVersion
  mad[1] = h.mgmtClass;
  mad[2] = h.classVersion;
  mad[3] = h.method;
  mad.writeUInt16BE(h.status, 4);
  mad.writeUInt32BE(h.transactionId >>> 0, 12);
  mad.writeUInt16BE(h.attributeId, 16);
  mad.writeUInt32BE(h.attributeModifier >>> 0, 20);
}

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

/** A performance-management Get of `attributeId` for one port (PortSelect at data byte 1). */
export function encodePmaGet(mad: Buffer, transactionId: number, attributeId: number, port: number): void {
  writeMadHeader(mad, {
    mgmtClass: MGMT_CLASS_PERF,
    classVersion: 1,
    method: METHOD_GET,
    status: 0,
    transactionId,
    attributeId,
    attributeModifier: 0,
  });
  mad.fill(0, MAD_DATA_OFFSET, MAD_SIZE);
  mad[MAD_DATA_OFFSET + 1] = port;
}

/** A LID-routed SubnGet of `attributeId` (PortInfo: the modifier is the port number). M_Key 0. */
export function encodeSmpGet(
  mad: Buffer,
  transactionId: number,
  attributeId: number,
  modifier: number,
): void {
  writeMadHeader(mad, {
    mgmtClass: MGMT_CLASS_SUBN_LID_ROUTED,
    classVersion: 1,
    method: METHOD_GET,
    status: 0,
    transactionId,
    attributeId,
    attributeModifier: modifier,
  });
  mad.fill(0, MAD_DATA_OFFSET, MAD_SIZE);
}

/** PortCounters (attribute 0x0012), fields named as perfquery prints them. */
export interface PortCounters {
  PortSelect: number;
  CounterSelect: number;
  SymbolErrorCounter: number;
  LinkErrorRecoveryCounter: number;
  LinkDownedCounter: number;
  PortRcvErrors: number;
  PortRcvRemotePhysicalErrors: number;
  PortRcvSwitchRelayErrors: number;
  PortXmitDiscards: number;
  PortXmitConstraintErrors: number;
  PortRcvConstraintErrors: number;
  CounterSelect2: number;
  LocalLinkIntegrityErrors: number;
  ExcessiveBufferOverrunErrors: number;
  QP1Dropped: number;
  VL15Dropped: number;
  PortXmitData: number;
  PortRcvData: number;
  PortXmitPkts: number;
  PortRcvPkts: number;
  PortXmitWait: number;
}

/** The error counters of PortCounters, in perfquery's order and names. */
export const PORT_COUNTERS_ERRORS = [
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'LinkDownedCounter',
  'PortRcvErrors',
  'PortRcvRemotePhysicalErrors',
  'PortRcvSwitchRelayErrors',
  'PortXmitDiscards',
  'PortXmitConstraintErrors',
  'PortRcvConstraintErrors',
  'LocalLinkIntegrityErrors',
  'ExcessiveBufferOverrunErrors',
  'VL15Dropped',
] as const satisfies readonly (keyof PortCounters)[];

export type PortCountersError = (typeof PORT_COUNTERS_ERRORS)[number];

/** Byte offset in the attribute and width in bytes; the two 4-bit counters share byte 19. */
const PC_LAYOUT: Readonly<
  Record<
    Exclude<keyof PortCounters, 'LocalLinkIntegrityErrors' | 'ExcessiveBufferOverrunErrors'>,
    readonly [number, 1 | 2 | 4]
  >
> = {
  PortSelect: [1, 1],
  CounterSelect: [2, 2],
  SymbolErrorCounter: [4, 2],
  LinkErrorRecoveryCounter: [6, 1],
  LinkDownedCounter: [7, 1],
  PortRcvErrors: [8, 2],
  PortRcvRemotePhysicalErrors: [10, 2],
  PortRcvSwitchRelayErrors: [12, 2],
  PortXmitDiscards: [14, 2],
  PortXmitConstraintErrors: [16, 1],
  PortRcvConstraintErrors: [17, 1],
  CounterSelect2: [18, 1],
  QP1Dropped: [20, 2],
  VL15Dropped: [22, 2],
  PortXmitData: [24, 4],
  PortRcvData: [28, 4],
  PortXmitPkts: [32, 4],
  PortRcvPkts: [36, 4],
  PortXmitWait: [40, 4],
};
const PC_ENTRIES = Object.entries(PC_LAYOUT) as [keyof typeof PC_LAYOUT, readonly [number, 1 | 2 | 4]][];
const LLI_EBO_BYTE = 19;

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

/** Where each of PORT_COUNTERS_ERRORS sits: [byte, width]; width -4 / 4 are byte 19's high / low nibble. */
const ERROR_AT: readonly (readonly [number, number])[] = PORT_COUNTERS_ERRORS.map((name) =>
  name === 'LocalLinkIntegrityErrors'
    ? [LLI_EBO_BYTE, -4]
    : name === 'ExcessiveBufferOverrunErrors'
      ? [LLI_EBO_BYTE, 4]
      : (PC_LAYOUT[name] as readonly [number, number]),
);

/**
 * PortCounters' error counters (PORT_COUNTERS_ERRORS order) as big-endian u16s into `out` at
 * `outAt`, without an object per answer: the sweeper's hot path.
 */
export function copyPortCountersErrors(data: Buffer, out: Buffer, outAt: number, at = MAD_DATA_OFFSET): void {
  for (let k = 0; k < ERROR_AT.length; k++) {
    const [offset, width] = ERROR_AT[k] as readonly [number, number];
    const byte = data[at + offset] as number;
    const value =
      width === 2
        ? data.readUInt16BE(at + offset)
        : width === 1
          ? byte
          : width === -4
            ? byte >> 4
            : byte & 0x0f;
    out.writeUInt16BE(value, outAt + 2 * k);
  }
}

/** PortCounters' PortXmitWait. */
export function portXmitWait(data: Buffer, at = MAD_DATA_OFFSET): number {
  return data.readUInt32BE(at + (PC_LAYOUT.PortXmitWait[0] as number));
}

/** PortCountersExtended (attribute 0x001D): 64-bit data (4-octet words) and packet counters. */
export interface PortCountersExtended {
  PortSelect: number;
  CounterSelect: number;
  PortXmitData: bigint;
  PortRcvData: bigint;
  PortXmitPkts: bigint;
  PortRcvPkts: bigint;
  PortUnicastXmitPkts: bigint;
  PortUnicastRcvPkts: bigint;
  PortMulticastXmitPkts: bigint;
  PortMulticastRcvPkts: bigint;
}

const PCE_COUNTERS = [
  'PortXmitData',
  'PortRcvData',
  'PortXmitPkts',
  'PortRcvPkts',
  'PortUnicastXmitPkts',
  'PortUnicastRcvPkts',
  'PortMulticastXmitPkts',
  'PortMulticastRcvPkts',
] as const;

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

/** The PortInfo fields the reader uses (and their neighbours in packed bytes). */
export interface PortInfo {
  lid: number;
  masterSmLid: number;
  capabilityMask: number;
  localPortNum: number;
  linkWidthEnabled: number;
  linkWidthSupported: number;
  /** Bits: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x. */
  linkWidthActive: number;
  linkSpeedSupported: number;
  /** 1 Down, 2 Initialize, 3 Armed, 4 Active. */
  portState: number;
  /** 1 Sleep, 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, 6 LinkErrorRecovery, 7 PhyTest. */
  physicalState: number;
  linkDownDefaultState: number;
  mKeyProtectBits: number;
  lmc: number;
  /** Bits: 1 SDR, 2 DDR, 4 QDR. */
  linkSpeedActive: number;
  linkSpeedEnabled: number;
  /** Bits 0x4000 IsExtendedSpeedsSupported, 0x8000 IsCapabilityMask2Supported. */
  capabilityMask2: number;
  /** 0 none, 1 FDR, 2 EDR, 4 HDR, 8 NDR. */
  linkSpeedExtActive: number;
  linkSpeedExtSupported: number;
  linkSpeedExtEnabled: number;
  /** 0 none, 1 XDR (IBA 1.7; valid when CapabilityMask2 has IsExtendedSpeeds2Supported). */
  linkSpeedExtActive2: number;
  linkSpeedExtSupported2: number;
  linkSpeedExtEnabled2: number;
}

export function decodePortInfo(data: Buffer, at = MAD_DATA_OFFSET): PortInfo {
  const b = (i: number) => data[at + i] as number;
  return {
    lid: data.readUInt16BE(at + 16),
    masterSmLid: data.readUInt16BE(at + 18),
    capabilityMask: data.readUInt32BE(at + 20),
    localPortNum: b(28),
    linkWidthEnabled: b(29),
    linkWidthSupported: b(30),
    linkWidthActive: b(31),
    linkSpeedSupported: b(32) >> 4,
    portState: b(32) & 0x0f,
    physicalState: b(33) >> 4,
    linkDownDefaultState: b(33) & 0x0f,
    mKeyProtectBits: b(34) >> 6,
    lmc: b(34) & 0x07,
    linkSpeedActive: b(35) >> 4,
    linkSpeedEnabled: b(35) & 0x0f,
    linkSpeedExtActive2: (b(56) >> 5) & 0x03,
    linkSpeedExtSupported2: (b(56) >> 3) & 0x03,
    linkSpeedExtEnabled2: b(56) & 0x07,
    capabilityMask2: data.readUInt16BE(at + 60),
    linkSpeedExtActive: b(62) >> 4,
    linkSpeedExtSupported: b(62) & 0x0f,
    linkSpeedExtEnabled: b(63) & 0x1f,
  };
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

/** Mellanox ExtendedPortInfo's LinkSpeedActive (data byte 15): bit 0 is FDR10 (libibmad `fields.c`). */
export function decodeMlnxLinkSpeedActive(data: Buffer, at = MAD_DATA_OFFSET): number {
  return data[at + 15] as number;
}

/** PMA ClassPortInfo CapabilityMask (data bytes 2–3) bit: the PMA counts PortXmitWait (IBA 16.1.2). */
export const PMA_CAP_XMIT_WAIT = 0x1000;

export function decodePmaCapabilityMask(data: Buffer, at = MAD_DATA_OFFSET): number {
  return data.readUInt16BE(at + 2);
}

export const CAP_IS_EXTENDED_SPEEDS_SUPPORTED = 0x4000;
export const CAP_IS_CAPABILITY_MASK2_SUPPORTED = 0x8000;
export const CAP2_IS_EXTENDED_SPEEDS_2_SUPPORTED = 0x0800;
export const PHYS_STATE_LINK_UP = 5;

/** Lanes of a LinkWidthActive value; null for none or a value the spec does not define. */
export function linkWidthLanes(active: number): number | null {
  switch (active) {
    case 1:
      return 1;
    case 2:
      return 4;
    case 4:
      return 8;
    case 8:
      return 12;
    case 16:
      return 2;
    default:
      return null;
  }
}

export type LinkSpeedName = 'SDR' | 'DDR' | 'QDR' | 'FDR10' | 'FDR' | 'EDR' | 'HDR' | 'NDR' | 'XDR';

/**
 * The active speed as ibnetdiscover names it: the extended speeds count only when the capability
 * mask says the port has them (a switch's is its port 0's, a CA port's its own:
 * `ibnd_get_agg_linkspeedext`), XDR only with IsExtendedSpeeds2Supported in CapabilityMask2, and
 * FDR10 is a QDR link whose Mellanox ExtendedPortInfo says so. Null for undefined values.
 */
export function linkSpeedName(
  port: Pick<PortInfo, 'linkSpeedActive' | 'linkSpeedExtActive' | 'linkSpeedExtActive2'>,
  capabilityMask: number,
  capabilityMask2: number,
  mlnxLinkSpeedActive = 0,
): LinkSpeedName | null {
  if (capabilityMask & CAP_IS_EXTENDED_SPEEDS_SUPPORTED) {
    if (
      capabilityMask & CAP_IS_CAPABILITY_MASK2_SUPPORTED &&
      capabilityMask2 & CAP2_IS_EXTENDED_SPEEDS_2_SUPPORTED &&
      port.linkSpeedExtActive2 === 1
    ) {
      return 'XDR';
    }
    switch (port.linkSpeedExtActive) {
      case 1:
        return 'FDR';
      case 2:
        return 'EDR';
      case 4:
        return 'HDR';
      case 8:
        return 'NDR';
      case 0:
        break;
      default:
        return null;
    }
  }
  switch (port.linkSpeedActive) {
    case 1:
      return 'SDR';
    case 2:
      return 'DDR';
    case 4:
      return mlnxLinkSpeedActive & 1 ? 'FDR10' : 'QDR';
    default:
      return null;
  }
}
