import { LANE_GBPS, parseWidthSpeed } from '../parse/rates.ts';
import type { FabricLink, FabricType } from './model.ts';

/**
 * Data Gb/s per InfiniBand lane after line encoding (IBTA Vol. 2); quoted rates are signalling rates.
 * Omni-Path 100 Gb/s carries 100 Gb/s of data; an Ethernet port's sold rate is its data rate.
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

/** A 4x InfiniBand link's quoted rate → its speed, when no width × speed was read (QDR for 40, not FDR10). */
const SPEED_OF_QUOTED_4X = new Map(
  Object.entries(LANE_GBPS)
    .filter(([speed]) => speed !== 'FDR10')
    .map(([speed, gbps]) => [4 * gbps, speed]),
);

/** Data rate (Gb/s) of `lanes` × `speed` InfiniBand lanes; undefined for an unknown speed. */
export function infinibandDataRateGbps(lanes: number, speed: string): number | undefined {
  const lane = INFINIBAND_LANE_DATA_GBPS[speed.toUpperCase()];
  return lane === undefined ? undefined : lanes * lane;
}

/** A link's width and speed: its own when read (40 is QDR or FDR10), else the 4x speed of its quoted rate. */
export function infinibandWidthSpeed(
  link: Pick<FabricLink, 'rateGbps' | 'widthSpeed'>,
): { lanes: number; speed: string } | undefined {
  const read = link.widthSpeed ? parseWidthSpeed(link.widthSpeed) : undefined;
  if (read) return { lanes: read.width, speed: read.speed };
  const speed = SPEED_OF_QUOTED_4X.get(link.rateGbps);
  return speed ? { lanes: 4, speed } : undefined;
}

/** The data rate a link carries; an unknown quoted rate is taken as is (better high than no capacity). */
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
