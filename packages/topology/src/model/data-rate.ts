import { LANE_GBPS } from '../parse/rates.ts';
import type { FabricLink, FabricType } from './model.ts';

/**
 * Quoted link rates (4x QDR = 40 Gb/s) are signalling rates; a link carries the data rate after
 * line encoding, used wherever a rate meets a byte counter. InfiniBand lanes (IBTA Vol. 2):
 * SDR 2.5, DDR 5, QDR 10 Gbaud with 8b/10b → 2, 4, 8 Gb/s of data; FDR10 10.3125 and FDR 14.0625
 * Gbaud with 64b/66b → 10 and 13.636; EDR 25.78125 with 64b/66b → 25; HDR 53.125 (PAM4,
 * 256b/257b with RS-FEC) → 50; NDR → 100; XDR → 200 per lane.
 * Omni-Path 100 Gb/s: 4 × 25.78125 Gbaud → 100 Gb/s of data, 12.5 GB/s (the seeds' figure).
 * Ethernet: the rate a port is sold at (40GbE, 100GbE) is already its data rate (64b/66b is on top).
 */
export const INFINIBAND_LANE_DATA_GBPS: Readonly<Record<string, number>> = {
  SDR: 2,
  DDR: 4,
  QDR: 8,
  FDR10: 10,
  FDR: 14.0625 * (64 / 66),
  EDR: 25,
  HDR: 50,
  NDR: 100,
  XDR: 200,
};

/** A 4x InfiniBand link's quoted rate → its speed, when no width × speed was read (QDR for 40). */
const SPEED_OF_QUOTED_4X: Readonly<Record<number, string>> = {
  10: 'SDR',
  20: 'DDR',
  40: 'QDR',
  56: 'FDR',
  100: 'EDR',
  200: 'HDR',
  400: 'NDR',
  800: 'XDR',
};

/** Data rate (Gb/s) of `lanes` × `speed` InfiniBand lanes; undefined for an unknown speed. */
export function infinibandDataRateGbps(lanes: number, speed: string): number | undefined {
  const lane = INFINIBAND_LANE_DATA_GBPS[speed.toUpperCase()];
  return lane === undefined ? undefined : lanes * lane;
}

/**
 * Width and speed of an InfiniBand link: its own (`4xFDR`) when read — what a dump printed is more
 * precise than a quoted rate (40 is 4x QDR or 4x FDR10) — else the 4x speed that carries the quoted
 * rate (QDR for 40); undefined when none does.
 */
export function infinibandWidthSpeed(
  link: Pick<FabricLink, 'rateGbps' | 'widthSpeed'>,
): { lanes: number; speed: string } | undefined {
  const m = link.widthSpeed ? /^(\d+)x\s*([A-Z0-9]+)$/i.exec(link.widthSpeed) : null;
  if (m) {
    const speed = (m[2] as string).toUpperCase();
    const lanes = Number(m[1]);
    if (LANE_GBPS[speed] !== undefined && [1, 2, 4, 8, 12].includes(lanes)) return { lanes, speed };
  }
  const speed = SPEED_OF_QUOTED_4X[link.rateGbps];
  return speed ? { lanes: 4, speed } : undefined;
}

/**
 * The data rate (Gb/s) a link carries: from its width × speed when read (`4xFDR` → 54.55), else
 * from its quoted rate and network kind. A quoted rate the table does not know is taken as the
 * data rate (better a slightly high capacity than none).
 */
export function linkDataRateGbps(
  link: Pick<FabricLink, 'rateGbps' | 'widthSpeed' | 'fabricType'>,
  fabricType: FabricType,
): number {
  if ((link.fabricType ?? fabricType) !== 'infiniband') return link.rateGbps;
  const ws = infinibandWidthSpeed(link);
  return ws ? (infinibandDataRateGbps(ws.lanes, ws.speed) as number) : link.rateGbps;
}

/** Bytes per second of data a link carries (linkDataRateGbps ÷ 8). */
export function linkDataBytesPerSecond(
  link: Pick<FabricLink, 'rateGbps' | 'widthSpeed' | 'fabricType'>,
  fabricType: FabricType,
): number {
  return (linkDataRateGbps(link, fabricType) * 1e9) / 8;
}
