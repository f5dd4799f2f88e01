import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TimeRange } from '../src/lib/time-params.ts';
import type { LinkSeries, SummaryPoint, TimeQueries } from '../src/store/time-queries.ts';
import { queriesAcrossDrawings } from '../src/store/time-queries-across.ts';

/** A drawing's queries that answer every point of a range with its own name, and say what was asked. */
function drawing(name: string, ids: string[]) {
  const asked: TimeRange[] = [];
  const points = (range: TimeRange) => {
    const out: number[] = [];
    for (let t = range.fromMs; t <= range.toMs; t += range.stepMs) out.push(t);
    return out;
  };
  const queries: TimeQueries = {
    resolutionMs: 1000,
    frameAt: async (timeMs) => ({ timeMs, name }) as never,
    linksAt: async (timeMs) => ({ timeMs, links: [{ id: name } as never] }),
    summaryAt: async (timeMs) => ({ time: name, timeMs }) as never,
    async summaryRange(range) {
      asked.push(range);
      return points(range).map(
        (timeMs): SummaryPoint => ({ timeMs, hostTransmitBytesPerSecond: ids.length, histogram: null }),
      );
    },
    async linkRange(wanted, range) {
      asked.push(range);
      return wanted.map(
        (id): LinkSeries => ({
          id,
          points: points(range).map((timeMs) => ({
            timeMs,
            utilization: ids.length,
            bytesPerSecond: null,
            transmitWaitFraction: null,
          })),
        }),
      );
    },
  };
  return { queries, ids: new Set(ids), asked };
}

describe('time questions across the topologies drawn', () => {
  it('every point of a range is answered once, by the drawing in force at it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 1_200_000 }), { minLength: 1, maxLength: 3 }),
        async (fromMs, points, stepMs, starts) => {
          const swaps = [...starts].sort((a, b) => a - b);
          const drawings = [
            { fromMs: 0, ...drawing('d0', ['a']) },
            ...swaps.map((s, i) => ({ fromMs: s, ...drawing(`d${i + 1}`, ['a', ...'bcd'.slice(0, i + 1)]) })),
          ];
          const across = queriesAcrossDrawings(drawings);
          const range = { fromMs, toMs: fromMs + points * stepMs, stepMs };
          const summary = await across.summaryRange(range);
          expect(summary.map((p) => p.timeMs)).toEqual(
            Array.from({ length: points + 1 }, (_, k) => fromMs + k * stepMs),
          );
          for (const p of summary) {
            const inForce = drawings.filter((d) => d.fromMs <= p.timeMs).at(-1) ?? drawings[0];
            expect(p.hostTransmitBytesPerSecond).toBe(inForce?.ids.size);
          }
          // A direction has points only where a drawing had it.
          const [series] = await across.linkRange(['b'], range);
          for (const p of series?.points ?? []) expect(p.timeMs).toBeGreaterThanOrEqual(swaps[0] as number);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an instant is answered by the drawing of its time; one drawing is its own queries', async () => {
    const old = drawing('old', ['a']);
    const grown = drawing('grown', ['a', 'b']);
    const across = queriesAcrossDrawings([
      { fromMs: 0, ...old },
      { fromMs: 5000, ...grown },
    ]);
    expect((await across.linksAt(4999)).links[0]?.id).toBe('old');
    expect((await across.linksAt(5000)).links[0]?.id).toBe('grown');
    expect(queriesAcrossDrawings([{ fromMs: 0, ...old }])).toBe(old.queries);
  });
});
