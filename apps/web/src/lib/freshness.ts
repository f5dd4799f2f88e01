/** The age of the numbers on screen (sample age at arrival plus time since) and whether it is stale. */

/** The server's staleness policy, as sent in every health object. */
export interface StalenessPolicy {
  intervalMs?: number | undefined;
  staleAfterSeconds?: number | undefined;
}

/** Before a policy arrives (or from a server that sends none): a 1 s tick, stale after 5 s. */
export const DEFAULT_INTERVAL_MS = 1000;
export const DEFAULT_STALE_AFTER_SECONDS = 5;

/** No message for two ticks and a second more: the stream is not delivering. */
export function streamSilenceLimitSeconds(intervalMs: number = DEFAULT_INTERVAL_MS): number {
  return (2 * intervalMs) / 1000 + 1;
}

export interface FreshnessInput {
  nowMs: number;
  /** When the last stream message arrived (browser clock), or null before the first. */
  receivedAtMs: number | null;
  /** health.lastSampleAgeSeconds of that message. */
  lastSampleAgeSeconds: number | null;
  staleLinkCount: number;
  /** The server's policy from the last message's health; defaults when absent. */
  policy?: StalenessPolicy | null | undefined;
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
  const silenceLimit = streamSilenceLimitSeconds(input.policy?.intervalMs ?? DEFAULT_INTERVAL_MS);
  const ageLimit = input.policy?.staleAfterSeconds ?? DEFAULT_STALE_AFTER_SECONDS;
  const reasons: string[] = [];
  if (silenceSeconds > silenceLimit) reasons.push('the live stream is not delivering');
  if (dataAgeSeconds === null) reasons.push('the store holds no sample yet');
  else if (dataAgeSeconds > ageLimit) reasons.push('the metrics store has no recent sample');
  if (input.staleLinkCount > 0) {
    reasons.push(
      `${input.staleLinkCount} link direction${input.staleLinkCount === 1 ? ' has' : 's have'} no recent sample`,
    );
  }
  return { state: reasons.length > 0 ? 'stale' : 'fresh', dataAgeSeconds, silenceSeconds, reasons };
}
