import {
  ATTR_CLASS_PORT_INFO,
  ATTR_MLNX_EXT_PORT_INFO,
  ATTR_PORT_COUNTERS,
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_INFO,
  ATTR_PORT_SAMPLES_CONTROL,
  MAD_DATA_OFFSET,
} from './ib-mad.ts';
import {
  BASIC_ERROR_WIDTHS,
  copyPortCountersErrors,
  decodePmaCapabilityMask2,
  decodeSamplesControl,
  PCE_ERRORS_AT,
  PCE_XMIT_WAIT_AT,
  portXmitWait,
} from './ib-pm-counters.ts';
import { decodePmaCapabilityMask, decodePortInfo, PHYS_STATE_LINK_UP } from './ib-port-info.ts';
import {
  type AttributeIndex,
  CLEARED_XMIT_WAIT,
  HAS_PORT_COUNTERS,
  HAS_PORT_COUNTERS_EXTENDED,
  HAS_PORT_INFO,
  OFF,
  RECORD_SIZE,
} from './ib-port-record.ts';
import type { LidKnowledge, PortKnowledge } from './ib-sweep-targets.ts';

/**
 * What a MAD asks, in a job code `index << 3 | kind`: index is the target's, or for the
 * CAPABILITIES and CLASS_PORT_INFO probes (once per LID, until answered) the distinct LID's.
 */
export const KIND_EXTENDED = 0;
export const KIND_COUNTERS = 1;
export const KIND_PORT_INFO = 2;
/** PortInfo of port 0 of a LID: a switch's capability masks live there, a CA port's in its own. */
export const KIND_CAPABILITIES = 3;
/** Mellanox ExtendedPortInfo of a QDR link: FDR10 or not. Never retried. */
export const KIND_MLNX = 4;
/** The PMA's ClassPortInfo of a LID: whether PortXmitWait counts, whether errors are 64-bit. */
export const KIND_CLASS_PORT_INFO = 5;
/** A port's PortSamplesControl (its Tick), until answered; never retried. */
export const KIND_SAMPLES_CONTROL = 6;
/** A PortCounters Set clearing the narrow counters near saturation (resets on); never retried. */
export const KIND_RESET = 7;

export const ATTRIBUTE_OF_KIND: readonly AttributeIndex[] = [2, 1, 0];
export const ATTRIBUTE_ID_OF_KIND = [
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_COUNTERS,
  ATTR_PORT_INFO,
  ATTR_PORT_INFO,
  ATTR_MLNX_EXT_PORT_INFO,
  ATTR_CLASS_PORT_INFO,
  ATTR_PORT_SAMPLES_CONTROL,
  ATTR_PORT_COUNTERS,
] as const;

const XMIT_WAIT_MAX = 2 ** 32 - 1;

/**
 * The narrow counters of a PortCounters answer kept in the record that have reached half their maximum
 * (CLEARED_* bits): cleared then, they never saturate between two sweeps (OpenSM's PerfMgr clears at ¾).
 */
export function nearSaturation(records: Buffer, index: number): number {
  const base = index * RECORD_SIZE;
  let mask = 0;
  for (let k = 0; k < BASIC_ERROR_WIDTHS.length; k++) {
    const max = 2 ** (BASIC_ERROR_WIDTHS[k] as number) - 1;
    if (records.readUInt16BE(base + OFF.errors + 2 * k) * 2 >= max) mask |= 1 << k;
  }
  if (records.readUInt32BE(base + OFF.transmitWait) * 2 >= XMIT_WAIT_MAX) mask |= CLEARED_XMIT_WAIT;
  return mask;
}
/**
 * Keeps what a valid answer says, in the port's record or in what is known of its LID. True when
 * a PortInfo answer shows a QDR link up, which may be FDR10 (the Mellanox extension says).
 */
export function storeAnswer(
  mad: Buffer,
  kind: number,
  index: number,
  records: Buffer,
  known: LidKnowledge,
  ports: PortKnowledge,
): boolean {
  const base = index * RECORD_SIZE;
  const data = MAD_DATA_OFFSET;
  switch (kind) {
    case KIND_EXTENDED:
      // PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts: 32 bytes as they came; the 64-bit errors and
      // XmitWait too, used where ClassPortInfo says the PMA has them (zeros otherwise).
      mad.copy(records, base + OFF.transmitData, data + 8, data + 40);
      mad.copy(records, base + OFF.errors64, data + PCE_ERRORS_AT, data + PCE_XMIT_WAIT_AT);
      mad.copy(records, base + OFF.transmitWait64, data + PCE_XMIT_WAIT_AT, data + PCE_XMIT_WAIT_AT + 8);
      records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_COUNTERS_EXTENDED;
      return false;
    case KIND_COUNTERS:
      records.writeUInt32BE(portXmitWait(mad), base + OFF.transmitWait);
      copyPortCountersErrors(mad, records, base + OFF.errors);
      records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_COUNTERS;
      return false;
    case KIND_PORT_INFO: {
      const p = decodePortInfo(mad);
      records[base + OFF.portState] = p.portState;
      records[base + OFF.physicalState] = p.physicalState;
      records[base + OFF.linkWidthActive] = p.linkWidthActive;
      records[base + OFF.linkSpeedActive] = p.linkSpeedActive;
      records[base + OFF.linkSpeedExtActive] = p.linkSpeedExtActive;
      records[base + OFF.linkSpeedExtActive2] = p.linkSpeedExtActive2;
      records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_INFO;
      return (
        p.linkSpeedActive === 4 &&
        p.linkSpeedExtActive === 0 &&
        p.linkSpeedExtActive2 === 0 &&
        p.physicalState === PHYS_STATE_LINK_UP
      );
    }
    case KIND_CAPABILITIES: {
      const p = decodePortInfo(mad);
      known.capMask[index] = p.capabilityMask;
      known.capMask2[index] = p.capabilityMask2;
      known.capsKnown[index] = 1;
      return false;
    }
    case KIND_MLNX:
      records[base + OFF.mlnxLinkSpeedActive] = mad[data + 15] as number;
      return false;
    case KIND_CLASS_PORT_INFO:
      known.pmaCapMask[index] = decodePmaCapabilityMask(mad);
      known.pmaCapMask2[index] = decodePmaCapabilityMask2(mad);
      known.pmaKnown[index] = 1;
      return false;
    case KIND_SAMPLES_CONTROL: {
      const c = decodeSamplesControl(mad);
      ports.samplesTick[index] = c.tick;
      ports.samplesCounterWidth[index] = c.counterWidthBits ?? 0;
      ports.samplesKnown[index] = 1;
      return false;
    }
    case KIND_RESET:
      // The Set's answer: the counters asked were cleared right after this sweep's Get read them.
      records.writeUInt16BE(records.readUInt16BE(base + OFF.resetAsked), base + OFF.cleared);
      return false;
  }
  return false;
}
