import {
  ATTR_CLASS_PORT_INFO,
  ATTR_MLNX_EXT_PORT_INFO,
  ATTR_PORT_COUNTERS,
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_INFO,
  MAD_DATA_OFFSET,
} from './ib-mad.ts';
import { copyPortCountersErrors, portXmitWait } from './ib-pm-counters.ts';
import { decodePmaCapabilityMask, decodePortInfo, PHYS_STATE_LINK_UP } from './ib-port-info.ts';
import {
  type AttributeIndex,
  HAS_PORT_COUNTERS,
  HAS_PORT_COUNTERS_EXTENDED,
  HAS_PORT_INFO,
  OFF,
  RECORD_SIZE,
} from './ib-port-record.ts';
import type { LidKnowledge } from './ib-sweep-targets.ts';

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
/** The PMA's ClassPortInfo of a LID: whether PortXmitWait counts. */
export const KIND_CLASS_PORT_INFO = 5;

export const ATTRIBUTE_OF_KIND: readonly AttributeIndex[] = [2, 1, 0];
export const ATTRIBUTE_ID_OF_KIND = [
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_COUNTERS,
  ATTR_PORT_INFO,
  ATTR_PORT_INFO,
  ATTR_MLNX_EXT_PORT_INFO,
  ATTR_CLASS_PORT_INFO,
] as const;
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
): boolean {
  const base = index * RECORD_SIZE;
  const data = MAD_DATA_OFFSET;
  switch (kind) {
    case KIND_EXTENDED:
      // PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts: 32 bytes as they came.
      mad.copy(records, base + OFF.transmitData, data + 8, data + 40);
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
      known.pmaKnown[index] = 1;
      return false;
  }
  return false;
}
