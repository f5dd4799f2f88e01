/** A bench's figures against their limits: `report` prints each (`OVER` beyond its limit), `failed` counts those. */
export function benchReporter(prefix = '', defaultDigits = 2) {
  let failed = 0;
  return {
    report(name: string, value: number, unit: string, limit?: number, digits = defaultDigits): void {
      const ok = limit === undefined || value <= limit;
      if (!ok) failed++;
      const bound = limit === undefined ? '' : ` (limit ${limit} ${unit})`;
      console.log(`${prefix}${name}: ${value.toFixed(digits)} ${unit}${bound}${ok ? '' : '  OVER'}`);
    },
    get failed(): number {
      return failed;
    },
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
