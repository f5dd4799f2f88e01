/** InfiniBand lane speeds as the industry quotes link rates (4xFDR = 56 Gb/s). */
export const LANE_GBPS: Readonly<Record<string, number>> = {
  SDR: 2.5,
  DDR: 5,
  QDR: 10,
  FDR10: 10,
  FDR: 14,
  EDR: 25,
  HDR: 50,
  NDR: 100,
  XDR: 200,
};

const WIDTHS = new Set([1, 2, 4, 8, 12]);

/** Data rate of a width × speed pair such as (4, 'EDR') → 100; undefined when either is unknown. */
export function rateOfWidthSpeed(width: number, speed: string): number | undefined {
  const lane = LANE_GBPS[speed.toUpperCase()];
  if (lane === undefined || !WIDTHS.has(width)) return undefined;
  return width * lane;
}

/** `4xEDR` / `4x EDR` → { width: 4, speed: 'EDR', rateGbps: 100 }. */
export function parseWidthSpeed(
  text: string,
): { width: number; speed: string; rateGbps: number } | undefined {
  const m = /^(\d+)x\s*([A-Z0-9]+)$/i.exec(text.trim());
  if (!m) return undefined;
  const width = Number(m[1]);
  const speed = (m[2] as string).toUpperCase();
  const rateGbps = rateOfWidthSpeed(width, speed);
  return rateGbps === undefined ? undefined : { width, speed, rateGbps };
}
