import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvaluationWatch } from '../src/store/evaluation-watch.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A watch over a fake Prometheus whose newest evaluation the test moves; counts the ticks. */
function watched(intervalMs: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const state = { newest: null as number | null, down: false, asked: 0 };
  const watch = new EvaluationWatch({
    intervalMs,
    newestEvaluation: async () => {
      state.asked++;
      if (state.down) throw new Error('connect ECONNREFUSED');
      return state.newest;
    },
  });
  let ticks = 0;
  const unsubscribe = watch.subscribe(() => ticks++);
  return { state, ticks: () => ticks, unsubscribe };
}

describe('ticks on the evaluations of the direction rules', () => {
  it('ticks within a poll of each new evaluation at a 15 s interval, not on a clock of its own', async () => {
    const { state, ticks, unsubscribe } = watched(15_000);
    state.newest = 100;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks()).toBe(1);
    // Nothing new for 10 s: no tick.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ticks()).toBe(1);
    // An evaluation lands (11 s after the last): the next poll, a second at most, ticks.
    state.newest = 115;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks()).toBe(2);
    unsubscribe();
  });

  it('ticks at least half an interval apart, and does not lose an evaluation that came sooner', async () => {
    const { state, ticks, unsubscribe } = watched(15_000);
    state.newest = 100;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks()).toBe(1);
    state.newest = 101; // e.g. a store whose timestamp() moves with every query
    await vi.advanceTimersByTimeAsync(3000);
    expect(ticks()).toBe(1);
    // Polls at 5…8 s find it still too soon after the tick at 1 s; the one at 9 s ticks.
    await vi.advanceTimersByTimeAsync(4000);
    expect(ticks()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks()).toBe(2);
    unsubscribe();
  });

  it('without evaluations (no rules, Prometheus down) ticks once an interval, so the tick can say why', async () => {
    const { state, ticks, unsubscribe } = watched(15_000);
    state.down = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticks()).toBe(1);
    await vi.advanceTimersByTimeAsync(13_000);
    expect(ticks()).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(ticks()).toBe(2);
    unsubscribe();
  });

  it('stops asking when the last listener leaves', async () => {
    const { state, unsubscribe } = watched(1000);
    await vi.advanceTimersByTimeAsync(1000);
    const asked = state.asked;
    expect(asked).toBeGreaterThan(0);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(5000);
    expect(state.asked).toBe(asked);
  });
});
