import { MAD_DATA_OFFSET } from './ib-mad.ts';

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
] as const;

export type PortCountersError = (typeof PORT_COUNTERS_ERRORS)[number];

/** PortCounters (attribute 0x0012): byte offset and width of each field; the two 4-bit counters share byte 19. */
export const PC_LAYOUT = {
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
} as const satisfies Record<string, readonly [number, 1 | 2 | 4]>;
export const LLI_EBO_BYTE = 19;

/** Where each of PORT_COUNTERS_ERRORS sits: [byte, width]; width -4 / 4 are byte 19's high / low nibble. */
const ERROR_AT: readonly (readonly [number, number])[] = PORT_COUNTERS_ERRORS.map((name) =>
  name === 'LocalLinkIntegrityErrors'
    ? [LLI_EBO_BYTE, -4]
    : name === 'ExcessiveBufferOverrunErrors'
      ? [LLI_EBO_BYTE, 4]
      : PC_LAYOUT[name],
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

/**
 * PortCountersExtended with AdditionalPortCountersExtended (PMA CapabilityMask2 bit 1): the error counters of
 * PORT_COUNTERS_ERRORS, in that order, 64 bits each from byte 72, then PortXmitWait at 168 (libibmad IB_PC_EXT_ERR_*).
 */
export const PCE_ERRORS_AT = 72;
export const PCE_XMIT_WAIT_AT = 168;

/** PMA ClassPortInfo CapabilityMask2 (27 bits above RespTimeValue in bytes 4–7) bit: 64-bit error counters. */
export const PMA_CAP2_ADDITIONAL_PORT_COUNTERS_EXTENDED = 0x2;

export function decodePmaCapabilityMask2(data: Buffer, at = MAD_DATA_OFFSET): number {
  return data.readUInt32BE(at + 4) >>> 5;
}

/** PortSamplesControl (attribute 0x0010, IBA 16.1.3.2): Tick (byte 2) and CounterWidth (byte 3, bits 2..0). */
export interface SamplesControl {
  tick: number;
  /** Bits of the sampling counters (16, 20, 24, 28 or 32); null for a reserved code. */
  counterWidthBits: number | null;
}

export function decodeSamplesControl(data: Buffer, at = MAD_DATA_OFFSET): SamplesControl {
  const code = (data[at + 3] as number) & 0x07;
  return { tick: data[at + 2] as number, counterWidthBits: code <= 4 ? 16 + 4 * code : null };
}

/** CounterSelect bit of each of PORT_COUNTERS_ERRORS (bit k for the k-th); PortXmitWait is CounterSelect2 bit 0. */
export const COUNTER_SELECT_BIT: readonly number[] = PORT_COUNTERS_ERRORS.map((_, k) => 1 << k);

/** Bit widths of PORT_COUNTERS_ERRORS in basic PortCounters, in that order. */
export const BASIC_ERROR_WIDTHS: readonly number[] = ERROR_AT.map(([, width]) =>
  Math.abs(width) === 4 ? 4 : width * 8,
);
