import type { LinkDirectionState } from '@fabscope/contracts';
import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statsOf } from '../src/jobs/report/direction-figures.ts';
import { columnsOfSeries } from '../src/jobs/report/direction-history.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { EmbeddedTimeQueries } from '../src/store/embedded-history.ts';
import { unknownStates } from './job-report/unknown-states.ts';
import { recordStates, summarize } from './oracles/object-path.ts';

describe("a direction's figures over the window", () => {
  it('statsOf selects the p95 and counts time above each threshold as a full sort would', () => {
    const value = fc.oneof(fc.constantFrom(0, 0.5, 0.8, 0.95, 1), fc.double({ min: 0, max: 2, noNaN: true }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 400 }), fc.boolean(), (values, scratch) => {
        const thresholds = [0.5, 0.8, 0.95];
        const stats = statsOf(scratch ? Float64Array.from(values) : values, thresholds, 10);
        const sorted = [...values].sort((a, b) => a - b);
        const rank = Math.max(0, Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1));
        expect(stats.p95).toBe(sorted[rank]);
        expect(stats.max).toBe(sorted.at(-1));
        expect(stats.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 9);
        expect(stats.secondsAbove).toEqual(
          thresholds.map((threshold) => ({
            threshold,
            seconds: 10 * sorted.filter((v) => v >= threshold).length,
          })),
        );
      }),
      { numRuns: 300 },
    );
    expect(statsOf([], [0.5], 10)).toEqual({
      mean: null,
      p95: null,
      max: null,
      secondsAbove: [{ threshold: 0.5, seconds: 0 }],
    });
  });

  it("the embedded store's columns hold linkRange's values, unknown as NaN, without a point object each", async () => {
    const fabric = buildScenario('fat-tree-1152');
    const index = new LinkIndex(fabric);
    const intervalMs = 1000;
    const queries = new EmbeddedTimeQueries(
      {
        onScrape: () => () => undefined,
        rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
        staleAfterMs: () => 3 * intervalMs,
      },
      index,
      { intervalMs },
    );
    const states = unknownStates(index);
    const start = 1_700_000_000_000;
    const ids = [7, 900, 3, 2500, 41].map((c) => index.channels[c]?.fixed.id as string);
    for (let f = 0; f < 20; f++) {
      // Frames 5..9 missing (a gap beyond the staleness), the rest with values, some unknown.
      if (f >= 5 && f <= 9) continue;
      for (const [k, c] of [7, 900, 3, 2500, 41].entries()) {
        const s = states[c] as LinkDirectionState;
        s.utilization = (f + k) % 4 === 0 ? null : ((f * 7 + k) % 10) / 10;
        s.bytesPerSecond = s.utilization === null ? null : s.utilization * s.capacityBytesPerSecond;
        s.transmitWaitFraction = (f + k) % 5 === 0 ? null : ((f + k) % 3) / 10;
      }
      recordStates(queries.history, index, start + f * intervalMs, states, summarize(index, states, start));
    }
    const range = { fromMs: start - 2000, toMs: start + 22_000, stepMs: 1000 };
    const columns = await queries.linkColumns([...ids, 'nowhere/1->elsewhere/1'], range);
    const series = await queries.linkRange([...ids, 'nowhere/1->elsewhere/1'], range);
    expect(columns.map((c) => ({ ...c, timesMs: [...c.timesMs] }))).toEqual(
      columnsOfSeries(series).map((c) => ({ ...c, timesMs: [...c.timesMs] })),
    );
    const known = columns.flatMap((c) => [...c.utilization]).filter((u) => !Number.isNaN(u));
    expect(known.length).toBeGreaterThan(20);
    expect(columns.flatMap((c) => [...c.utilization]).some(Number.isNaN)).toBe(true);
  });
});
