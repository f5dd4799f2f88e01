/** Labels for the opafm.xml <AdaptiveRouting> parameters as the API exposes them. */

/** ISL load (percent) tolerated before AR moves traffic, by Threshold value 1..7. */
const THRESHOLD_PERCENT: readonly number[] = [100, 90, 80, 70, 65, 60, 55];

export const THRESHOLD_VALUES: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7];
export const AR_FREQUENCY_VALUES: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7];
export const ALGORITHMS: readonly { value: 0 | 1 | 2; label: string }[] = [
  { value: 0, label: 'Random' },
  { value: 1, label: 'Greedy' },
  { value: 2, label: 'GreedyRandom' },
];

export function thresholdPercent(threshold: number): number | null {
  return threshold >= 1 && threshold <= 7 ? (THRESHOLD_PERCENT[threshold - 1] ?? null) : null;
}

export function thresholdLabel(threshold: number): string {
  if (threshold === 0) return '0 — firmware default';
  const percent = thresholdPercent(threshold);
  return percent === null ? `${threshold} — unknown` : `${threshold} — ${percent} % ISL load`;
}

/** Minimum time between AR adjustments: 2^n × 64 ms. */
export function arFrequencyMs(n: number): number {
  return 2 ** n * 64;
}

export function arFrequencyLabel(n: number): string {
  const ms = arFrequencyMs(n);
  return `${n} — ${ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')} s`}`;
}

export function algorithmLabel(value: number): string {
  const found = ALGORITHMS.find((a) => a.value === value);
  return found ? `${value} — ${found.label}` : `${value}`;
}
