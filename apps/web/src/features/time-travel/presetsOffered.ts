import { RANGE_PRESETS, type TimeRange } from '../../lib/timeRange.ts';

type Preset = (typeof RANGE_PRESETS)[number];

/** What the store holds, as `/history/kept` says: seconds null where a TSDB's retention decides. */
export interface Kept {
  seconds: number | null;
}

/** The presets up to an hour: what any store holds (the embedded default), offered before the store says. */
const ALWAYS_SECONDS = 3600;

/**
 * The presets a store holding `kept` can fill: every one with a TSDB (null), up to its capacity on the embedded
 * store; the range chosen is kept offered (a URL may ask for more than is held: the chart shows what there is).
 */
export function presetsOffered(kept: Kept | null, range: TimeRange): Preset[] {
  const held = kept === null ? ALWAYS_SECONDS : (kept.seconds ?? Number.POSITIVE_INFINITY);
  return RANGE_PRESETS.filter(
    (p) => p.seconds <= Math.max(held, ALWAYS_SECONDS) || (range.kind === 'preset' && range.key === p.key),
  );
}
