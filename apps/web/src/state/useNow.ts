import { useEffect, useState } from 'react';

/** Wall-clock time, refreshed every `intervalMs`; only for "N s ago" text, never for data. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
