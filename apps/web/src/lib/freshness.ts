/**
 * How old the numbers on screen are, and whether to call them stale. The age is the server's
 * `lastSampleAgeSeconds` when the message arrived plus the time since, so browser and server
 * clocks need not agree.
 */

/** No stream message for this long → stale. */
export const STREAM_SILENCE_LIMIT_SECONDS = 3;
/** Newest sample older than this → stale. */
export const SAMPLE_AGE_LIMIT_SECONDS = 5;

export interface FreshnessInput {
  nowMs: number;
  /** When the last stream message arrived (browser clock), or null before the first. */
  receivedAtMs: number | null;
  /** health.lastSampleAgeSeconds of that message. */
  lastSampleAgeSeconds: number | null;
  staleLinkCount: number;
}

export type FreshnessState = 'waiting' | 'fresh' | 'stale';

export interface Freshness {
  state: FreshnessState;
  /** Age of the newest sample now, or null when unknown. */
  dataAgeSeconds: number | null;
  /** Seconds since the last stream message, or null before the first. */
  silenceSeconds: number | null;
  reasons: string[];
}

export function assessFreshness(input: FreshnessInput): Freshness {
  if (input.receivedAtMs === null) {
    return { state: 'waiting', dataAgeSeconds: null, silenceSeconds: null, reasons: [] };
  }
  const silenceSeconds = Math.max(0, (input.nowMs - input.receivedAtMs) / 1000);
  const dataAgeSeconds =
    input.lastSampleAgeSeconds === null ? null : input.lastSampleAgeSeconds + silenceSeconds;
  const reasons: string[] = [];
  if (silenceSeconds > STREAM_SILENCE_LIMIT_SECONDS) reasons.push('the live stream is not delivering');
  if (dataAgeSeconds === null) reasons.push('the store holds no sample yet');
  else if (dataAgeSeconds > SAMPLE_AGE_LIMIT_SECONDS) reasons.push('the metrics store has no recent sample');
  if (input.staleLinkCount > 0) {
    reasons.push(
      `${input.staleLinkCount} link direction${input.staleLinkCount === 1 ? ' has' : 's have'} no recent sample`,
    );
  }
  return { state: reasons.length > 0 ? 'stale' : 'fresh', dataAgeSeconds, silenceSeconds, reasons };
}
