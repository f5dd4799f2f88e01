import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALARM_LEVELS, CLEAR_HOLD_MS } from '../src/events/alarm-levels.ts';
import { Alarms } from '../src/events/alarms.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { emptyFrame, type LinkFrame } from '../src/lib/frame.ts';
import { LinkIndex } from '../src/lib/link-index.ts';

const index = new LinkIndex(buildScenario('ar-demo'));
const DIRECTION = 'edge1/4->core2/1';
const channel = index.channelById.get(DIRECTION)?.index as number;
const WARNING = ALARM_LEVELS[1] as (typeof ALARM_LEVELS)[number];

/** A tick where every port was read and only DIRECTION's integrity is known (null: unknown). */
function frameOf(timeMs: number, value: number | null): LinkFrame {
  const frame = emptyFrame(index, timeMs, 0, new Map());
  for (const values of Object.values(frame.categories)) values.fill(Number.NaN);
  frame.categories.integrity[channel] = value ?? Number.NaN;
  frame.portsRead.fill(1);
  return frame;
}

/** Values around the threshold (1 ×) and its clear level (0.8 ×), some far above, some unknown. */
const value = fc.oneof(
  fc.constant(null),
  fc.double({ min: 0.6, max: 1.2, noNaN: true }),
  fc.double({ min: 0, max: 15, noNaN: true }),
);
const ticks = fc.array(fc.record({ stepMs: fc.integer({ min: 100, max: 6000 }), value }), { maxLength: 80 });

describe('alarm hysteresis (raise at the threshold, clear below 80 % of it held 10 s)', () => {
  it('for any values and unknowns around the threshold: raises and clears alternate; none on unknown; a clear only after 10 s below the clear level', () => {
    fc.assert(
      fc.property(ticks, (sequence) => {
        const log = new MemoryEventLog();
        const alarms = new Alarms(log);
        const watch = new HealthWatch(log, index, undefined, alarms);
        let timeMs = 0;
        const seen: { timeMs: number; value: number | null }[] = [];
        for (const { stepMs, value } of sequence) {
          timeMs += stepMs;
          seen.push({ timeMs, value });
          watch.observe(timeMs, frameOf(timeMs, value));
        }
        const valueAt = new Map(seen.map((s) => [s.timeMs, s.value]));
        const changes = log
          .list(0, timeMs)
          // Raised and cleared (a severity change in between is logged too).
          .filter((e) => e.kind === 'alarm' && /^alarm (raised|cleared)/.test(e.detail))
          .map((e) => ({ timeMs: e.timeMs, raised: e.detail.startsWith('alarm raised') }));
        changes.forEach((change, i) => {
          // raised, cleared, raised, …
          expect(change.raised).toBe(i % 2 === 0);
          const v = valueAt.get(change.timeMs);
          expect(v).not.toBeNull();
          if (change.raised) expect(v).toBeGreaterThanOrEqual(WARNING.raiseAt);
          else {
            expect(v).toBeLessThan(WARNING.clearBelow);
            // Every known value in the hold before it was below the clear level, and the hold had begun by then.
            const held = seen.filter(
              (s) => s.timeMs >= change.timeMs - CLEAR_HOLD_MS && s.timeMs <= change.timeMs,
            );
            for (const s of held) if (s.value !== null) expect(s.value).toBeLessThan(WARNING.clearBelow);
            expect(seen.some((s) => s.timeMs <= change.timeMs - CLEAR_HOLD_MS)).toBe(true);
          }
        });
        // Threshold events agree with the alarm: a rise from nothing per raise, a fall to nothing per clear.
        const thresholds = log.list(0, timeMs).filter((e) => e.kind === 'threshold');
        expect(thresholds.filter((e) => !e.detail.includes('(was ') && e.severity !== 'info')).toHaveLength(
          changes.filter((c) => c.raised).length,
        );
        expect(thresholds.filter((e) => e.severity === 'info')).toHaveLength(
          changes.filter((c) => !c.raised).length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a rate jittering at the threshold (VL15Dropped at 1/s read as 0, 1 or 2) raises one alarm and never flaps', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const watch = new HealthWatch(log, index, undefined, alarms);
    const jitter = [1, 0, 0, 2, 1, 1, 0, 2, 0.9, 0.7, 1.4, 1];
    for (let s = 1; s <= 60; s++)
      watch.observe(s * 1000, frameOf(s * 1000, jitter[s % jitter.length] as number));
    // Then just under the threshold, above its clear level, for a minute: still raised.
    for (let s = 61; s <= 120; s++) watch.observe(s * 1000, frameOf(s * 1000, 0.85));
    expect(log.list(0, 120_000).filter((e) => e.kind === 'alarm')).toHaveLength(1);
    expect(alarms.list(false)).toHaveLength(1);
  });

  it('an alarm whose value goes unknown stays raised and says since when and why; a known value clears that', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const watch = new HealthWatch(log, index, undefined, alarms);
    watch.observe(1000, frameOf(1000, 2));
    const unread = frameOf(2000, null);
    unread.portsRead.fill(0);
    watch.observe(2000, unread);
    for (let t = 3000; t <= 60_000; t += 1000) watch.observe(t, frameOf(t, null));
    const [alarm] = alarms.list(false);
    expect(alarm?.unknown).toEqual({ count: 1, sinceMs: 2000, reason: 'no fresh reading of its port' });
    expect(alarm?.members[0]).toMatchObject({ id: DIRECTION, value: 2, unknownSinceMs: 2000 });
    expect(
      log.list(0, 60_000).filter((e) => e.kind === 'threshold' || e.detail.startsWith('alarm cleared')),
    ).toEqual([expect.objectContaining({ timeMs: 1000, kind: 'threshold' })]);
    watch.observe(61_000, frameOf(61_000, 1.5));
    expect(alarms.list(false)[0]?.unknown).toBeNull();
  });
});
