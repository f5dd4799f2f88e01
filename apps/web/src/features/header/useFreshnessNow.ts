import { useEffect, useState } from 'react';
import {
  DEFAULT_STALE_AFTER_SECONDS,
  type StalenessPolicy,
  streamSilenceLimitSeconds,
} from '../../lib/freshness.ts';

/** How often a late stream's age is written again. */
export const LATE_REFRESH_MS = 250;

/** When the age text next needs writing: when the stream turns silent or the sample stale. */
export function ageRefreshAtMs(
  receivedAtMs: number,
  lastSampleAgeSeconds: number | null,
  policy?: StalenessPolicy | null,
): number {
  const late = receivedAtMs + streamSilenceLimitSeconds(policy?.intervalMs ?? undefined) * 1000;
  if (lastSampleAgeSeconds === null) return late;
  const limit = policy?.staleAfterSeconds ?? DEFAULT_STALE_AFTER_SECONDS;
  return Math.min(late, receivedAtMs + Math.max(0, limit - lastSampleAgeSeconds) * 1000);
}

/** Wall-clock time for the age text and stale banner: the last arrival, then every LATE_REFRESH_MS. */
export function useFreshnessNow(
  receivedAtMs: number | null,
  lastSampleAgeSeconds: number | null,
  policy?: StalenessPolicy | null,
): number {
  const [now, setNow] = useState(() => Date.now());
  const intervalMs = policy?.intervalMs;
  const staleAfterSeconds = policy?.staleAfterSeconds;
  useEffect(() => {
    if (receivedAtMs === null) return;
    let ticker: ReturnType<typeof setInterval> | undefined;
    const at = ageRefreshAtMs(receivedAtMs, lastSampleAgeSeconds, { intervalMs, staleAfterSeconds });
    const late = setTimeout(
      () => {
        setNow(Date.now());
        ticker = setInterval(() => setNow(Date.now()), LATE_REFRESH_MS);
      },
      Math.max(0, at - Date.now()),
    );
    return () => {
      clearTimeout(late);
      clearInterval(ticker);
    };
  }, [receivedAtMs, lastSampleAgeSeconds, intervalMs, staleAfterSeconds]);
  return Math.max(now, receivedAtMs ?? 0);
}
