import { MAD_DATA_OFFSET } from './ib-mad.ts';

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

/** PMA ClassPortInfo CapabilityMask (data bytes 2–3) bit: the PMA counts PortXmitWait (IBA 16.1.2). */
export const PMA_CAP_XMIT_WAIT = 0x1000;

export function decodePmaCapabilityMask(data: Buffer, at = MAD_DATA_OFFSET): number {
  return data.readUInt16BE(at + 2);
}

const CAP_IS_EXTENDED_SPEEDS_SUPPORTED = 0x4000;
const CAP_IS_CAPABILITY_MASK2_SUPPORTED = 0x8000;
const CAP2_IS_EXTENDED_SPEEDS_2_SUPPORTED = 0x0800;
export const PHYS_STATE_LINK_UP = 5;

const LANES: Readonly<Record<number, number>> = { 1: 1, 2: 4, 4: 8, 8: 12, 16: 2 };

/** Lanes of a LinkWidthActive value; null for none or a value the spec does not define. */
export function linkWidthLanes(active: number): number | null {
  return LANES[active] ?? null;
}

export type LinkSpeedName = 'SDR' | 'DDR' | 'QDR' | 'FDR10' | 'FDR' | 'EDR' | 'HDR' | 'NDR' | 'XDR';
const SPEEDS: Readonly<Record<number, LinkSpeedName>> = { 1: 'SDR', 2: 'DDR', 4: 'QDR' };
const EXT_SPEEDS: Readonly<Record<number, LinkSpeedName>> = { 1: 'FDR', 2: 'EDR', 4: 'HDR', 8: 'NDR' };

/**
 * The active speed as ibnetdiscover names it (`ibnd_get_agg_linkspeedext`): extended speeds only when
 * the capability masks say so, FDR10 a QDR link whose Mellanox ExtendedPortInfo says so.
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
    if (port.linkSpeedExtActive !== 0) return EXT_SPEEDS[port.linkSpeedExtActive] ?? null;
  }
  if (port.linkSpeedActive === 4 && mlnxLinkSpeedActive & 1) return 'FDR10';
  return SPEEDS[port.linkSpeedActive] ?? null;
}
