/**
 * One port's answers as the reader's child hands them to the parent: a fixed big-endian record of
 * RECORD_SIZE bytes per target, far smaller than JSON, read back into an IbPortReading.
 */
import { PORT_COUNTERS_ERRORS, type PortCountersError } from './ib-pm-counters.ts';
import { linkSpeedName, linkWidthLanes } from './ib-port-info.ts';

export const RECORD_SIZE = 208;

/** Flags (byte 0): what was read. */
export const HAS_PORT_INFO = 1;
export const HAS_PORT_COUNTERS = 2;
export const HAS_PORT_COUNTERS_EXTENDED = 4;
/** The capability masks of the port's LID (a switch's port 0, a CA port's own) are known. */
export const HAS_CAPABILITIES = 8;
/** PortCounters answered and the PMA's ClassPortInfo says it counts PortXmitWait. */
export const HAS_XMIT_WAIT = 16;
/** PortCountersExtended answered and the PMA has AdditionalPortCountersExtended: 64-bit errors and XmitWait. */
export const HAS_EXTENDED_ERRORS = 32;
/** The port's PortSamplesControl answered (its Tick and CounterWidth are in the record). */
export const HAS_SAMPLES_CONTROL = 64;
/** Bit of PortXmitWait in the cleared and reset-asked masks (bit k: the k-th of PORT_COUNTERS_ERRORS). */
export const CLEARED_XMIT_WAIT = 1 << 12;

/** How an attribute failed: two bits per attribute in the failures field. */
export const FAILED_NO_ANSWER = 1;
export const FAILED_STATUS = 2;
export const FAILED_BAD_ANSWER = 3;

/** What the failures field's attributes are, by index (AttributeIndex). */
const ATTRIBUTE_NAMES = [
  'PortInfo',
  'PortCounters',
  'PortCountersExtended',
  'PortInfo of port 0 (capability masks: link speed unknown)',
  'ClassPortInfo (PortXmitWait support unknown)',
] as const;
export type AttributeIndex = 0 | 1 | 2 | 3 | 4;

export const OFF = {
  flags: 0,
  /** u16: two bits (FAILED_*) per attribute index. */
  failures: 2,
  /** u16 per attribute index: the MAD status of a failed attribute. */
  status: 4,
  portState: 14,
  physicalState: 15,
  linkWidthActive: 16,
  linkSpeedActive: 17,
  linkSpeedExtActive: 18,
  linkSpeedExtActive2: 19,
  mlnxLinkSpeedActive: 20,
  /** PortSamplesControl Tick. */
  samplesTick: 21,
  capabilityMask2: 22,
  capabilityMask: 24,
  transmitWait: 28,
  /** PortCountersExtended's PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts as they came. */
  transmitData: 32,
  receiveData: 40,
  transmitPackets: 48,
  receivePackets: 56,
  /** The error counters, a u16 each (none is wider in PortCounters), in PORT_COUNTERS_ERRORS order. */
  errors: 64,
  /** PortSamplesControl CounterWidth in bits (0: unknown). */
  samplesCounterWidth: 88,
  /** u16: the counters a PortCounters Set cleared this sweep, right after the Get read them (CLEARED_* bits). */
  cleared: 90,
  /** u16: the counters this sweep's reset asks to clear. */
  resetAsked: 92,
  /** PortCountersExtended's PortXmitWait and 64-bit error counters (PORT_COUNTERS_ERRORS order) as they came. */
  transmitWait64: 96,
  errors64: 104,
  /** f64: Unix ms the port's counters were read (the middle of their MAD's round trip); 0 when none answered. */
  countersReadAtMs: 200,
} as const;

export function setFailure(
  records: Buffer,
  base: number,
  attribute: AttributeIndex,
  kind: number,
  status = 0,
): void {
  const shift = 2 * attribute;
  const failures = records.readUInt16BE(base + OFF.failures);
  records.writeUInt16BE((failures & ~(3 << shift)) | (kind << shift), base + OFF.failures);
  records.writeUInt16BE(status, base + OFF.status + 2 * attribute);
}

/** What a port read gives: every value null when it was not read (unknown is never 0). */
export interface IbPortReading {
  /** PortInfo PortState: 1 Down, 2 Initialize, 3 Armed, 4 Active. */
  portState: number | null;
  /** PortPhysicalState: 1 Sleep, 2 Polling, 3 Disabled, 4 Training, 5 LinkUp, 6 LinkErrorRecovery, 7 PhyTest. */
  physicalState: number | null;
  /** Active lanes (1, 2, 4, 8, 12). */
  linkWidthActive: number | null;
  /** 'SDR' | 'DDR' | 'QDR' | 'FDR10' | 'FDR' | 'EDR' | 'HDR' | 'NDR' | 'XDR'. */
  linkSpeedActive: string | null;
  /** PortCountersExtended data counters × 4 (they count 4-octet words). */
  transmitBytes: bigint | null;
  receiveBytes: bigint | null;
  transmitPackets: bigint | null;
  receivePackets: bigint | null;
  /** PortCounters PortXmitWait (32 bits, saturating), in the port's ticks; null where the PMA has none. */
  transmitWaitTicks: bigint | null;
  /** The error counters by perfquery's field names: PortCounters', or PortCountersExtended's where `countersExtended`. */
  errors: Record<PortCountersError, number> | null;
  /** Errors and XmitWait are PortCountersExtended's 64-bit ones (AdditionalPortCountersExtended), not the narrow ones. */
  countersExtended: boolean;
  /** PortSamplesControl Tick (a PortXmitWait tick is Tick + 1 symbol times); null where the PMA did not answer it. */
  samplesTick: number | null;
  /** PortSamplesControl CounterWidth in bits; null where unknown. */
  samplesCounterWidth: number | null;
  /** Counters (perfquery names) this sweep cleared right after reading them: the next reading counts from 0. */
  cleared: readonly string[];
  /** When its counters were read (Unix ms, the middle of their MAD's round trip); null when none answered. */
  countersReadAtMs: number | null;
  /** Why some attribute of the port could not be read (the values it would have given are null). */
  failure?: string;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  1: 'busy',
  2: 'redirect required (not followed)',
  4: 'bad version',
  8: 'method not supported',
  12: 'method/attribute combination not supported',
  28: 'invalid attribute or modifier',
};

function failureText(kind: number, status: number, tries: number): string {
  if (kind === FAILED_NO_ANSWER) return `no answer after ${tries} ${tries === 1 ? 'try' : 'tries'}`;
  if (kind === FAILED_STATUS) {
    const hex = `0x${status.toString(16).padStart(4, '0')}`;
    return `MAD status ${hex}${STATUS_TEXT[status & 0x1f] ? ` (${STATUS_TEXT[status & 0x1f]})` : ''}`;
  }
  return 'malformed answer';
}

const NONE_CLEARED: readonly string[] = Object.freeze([]);

/** Names of the counters in a cleared mask (CLEARED_* bits). */
function clearedNames(mask: number): readonly string[] {
  if (mask === 0) return NONE_CLEARED;
  const names: string[] = PORT_COUNTERS_ERRORS.filter((_, k) => (mask >> k) & 1);
  if (mask & CLEARED_XMIT_WAIT) names.push('PortXmitWait');
  return names;
}

/** Error counter k of a record: a u16 at `e` (PortCounters), or a u64 (PortCountersExtended) where `wide`. */
function errorAt(buf: Buffer, e: number, wide: boolean, k: number): number {
  return wide ? Number(buf.readBigUInt64BE(e + 8 * k)) : buf.readUInt16BE(e + 2 * k);
}

function errorsAt(buf: Buffer, e: number, wide: boolean): Record<PortCountersError, number> {
  // PORT_COUNTERS_ERRORS order.
  return {
    SymbolErrorCounter: errorAt(buf, e, wide, 0),
    LinkErrorRecoveryCounter: errorAt(buf, e, wide, 1),
    LinkDownedCounter: errorAt(buf, e, wide, 2),
    PortRcvErrors: errorAt(buf, e, wide, 3),
    PortRcvRemotePhysicalErrors: errorAt(buf, e, wide, 4),
    PortRcvSwitchRelayErrors: errorAt(buf, e, wide, 5),
    PortXmitDiscards: errorAt(buf, e, wide, 6),
    PortXmitConstraintErrors: errorAt(buf, e, wide, 7),
    PortRcvConstraintErrors: errorAt(buf, e, wide, 8),
    LocalLinkIntegrityErrors: errorAt(buf, e, wide, 9),
    ExcessiveBufferOverrunErrors: errorAt(buf, e, wide, 10),
    VL15Dropped: errorAt(buf, e, wide, 11),
  };
}

/** The reading in record `index`; `tries` is how often a MAD was sent before giving up. */
export function readRecord(buf: Buffer, index: number, tries: number): IbPortReading {
  // Hot: once per port per sweep, on the caller's event loop. No closures, one shape.
  const base = index * RECORD_SIZE;
  const flags = buf[base + OFF.flags] as number;
  const info = (flags & HAS_PORT_INFO) !== 0;
  const extended = (flags & HAS_PORT_COUNTERS_EXTENDED) !== 0;
  const counters = (flags & HAS_PORT_COUNTERS) !== 0;
  const wide = (flags & HAS_EXTENDED_ERRORS) !== 0;
  const samples = (flags & HAS_SAMPLES_CONTROL) !== 0;
  const width = buf[base + OFF.samplesCounterWidth] as number;
  const reading: IbPortReading = {
    portState: info ? (buf[base + OFF.portState] as number) : null,
    physicalState: info ? (buf[base + OFF.physicalState] as number) : null,
    linkWidthActive: info ? linkWidthLanes(buf[base + OFF.linkWidthActive] as number) : null,
    linkSpeedActive:
      info && flags & HAS_CAPABILITIES
        ? linkSpeedName(
            {
              linkSpeedActive: buf[base + OFF.linkSpeedActive] as number,
              linkSpeedExtActive: buf[base + OFF.linkSpeedExtActive] as number,
              linkSpeedExtActive2: buf[base + OFF.linkSpeedExtActive2] as number,
            },
            buf.readUInt32BE(base + OFF.capabilityMask),
            buf.readUInt16BE(base + OFF.capabilityMask2),
            buf[base + OFF.mlnxLinkSpeedActive] as number,
          )
        : null,
    transmitBytes: extended ? buf.readBigUInt64BE(base + OFF.transmitData) * 4n : null,
    receiveBytes: extended ? buf.readBigUInt64BE(base + OFF.receiveData) * 4n : null,
    transmitPackets: extended ? buf.readBigUInt64BE(base + OFF.transmitPackets) : null,
    receivePackets: extended ? buf.readBigUInt64BE(base + OFF.receivePackets) : null,
    transmitWaitTicks:
      flags & HAS_XMIT_WAIT
        ? wide
          ? buf.readBigUInt64BE(base + OFF.transmitWait64)
          : BigInt(buf.readUInt32BE(base + OFF.transmitWait))
        : null,
    errors: wide
      ? errorsAt(buf, base + OFF.errors64, true)
      : counters
        ? errorsAt(buf, base + OFF.errors, false)
        : null,
    countersExtended: wide,
    samplesTick: samples ? (buf[base + OFF.samplesTick] as number) : null,
    samplesCounterWidth: samples && width > 0 ? width : null,
    cleared: clearedNames(buf.readUInt16BE(base + OFF.cleared)),
    countersReadAtMs: extended || counters ? buf.readDoubleBE(base + OFF.countersReadAtMs) : null,
  };
  const failures = buf.readUInt16BE(base + OFF.failures);
  if (failures !== 0) {
    const parts: string[] = [];
    for (let a = 0; a < ATTRIBUTE_NAMES.length; a++) {
      const kind = (failures >> (2 * a)) & 3;
      if (kind !== 0) {
        const status = buf.readUInt16BE(base + OFF.status + 2 * a);
        parts.push(`${ATTRIBUTE_NAMES[a]}: ${failureText(kind, status, tries)}`);
      }
    }
    reading.failure = parts.join('; ');
  }
  return reading;
}
