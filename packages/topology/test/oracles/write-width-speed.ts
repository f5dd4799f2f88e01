import type { FabricLink } from '../../src/index.ts';
import { LANE_GBPS, parseWidthSpeed } from '../../src/index.ts';

/** Widths tried for a rate with no width × speed of its own: 4x first, as nearly every cable is. */
const WIDTHS = [4, 1, 2, 8, 12] as const;

/** A link's width × speed as ibnetdiscover prints it: its own, else the first that gives its rate. */
export function widthSpeedOf(link: FabricLink): string {
  const own = link.widthSpeed === undefined ? undefined : parseWidthSpeed(link.widthSpeed);
  if (own) return `${own.width}x${own.speed}`;
  for (const width of WIDTHS) {
    for (const [speed, lane] of Object.entries(LANE_GBPS)) {
      if (width * lane === link.rateGbps) return `${width}x${speed}`;
    }
  }
  throw new RangeError(`link ${link.id}: no InfiniBand width and speed carries ${link.rateGbps} Gb/s`);
}
