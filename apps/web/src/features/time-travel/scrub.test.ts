import { describe, expect, it } from 'vitest';
import { applyScrub, isTypingTarget, type ScrubState, scrubActionOf, tickFromGaps } from './scrub.ts';

const latestMs = 1_000_000;
const ctx = { latestMs, tickSeconds: 2 };
const live: ScrubState = { atMs: null, bookmarkMs: null };

function press(state: ScrubState, ...keys: string[]): ScrubState {
  return keys.reduce((s, key) => {
    const action = scrubActionOf({ key });
    if (!action) throw new Error(`no action for ${key}`);
    return applyScrub(s, action, ctx);
  }, state);
}

describe('opatop scrub keys', () => {
  it('r/R step back 1/5 ticks from the newest sample, f/F forward', () => {
    expect(press(live, 'r').atMs).toBe(latestMs - 2000);
    expect(press(live, 'R').atMs).toBe(latestMs - 10_000);
    expect(press(live, 'R', 'f').atMs).toBe(latestMs - 8000);
    expect(press(live, 'R', 'r', 'F').atMs).toBe(latestMs - 2000);
  });

  it('forward to or past the newest sample, and L, return to live', () => {
    expect(press(live, 'r', 'F').atMs).toBeNull();
    expect(press(live, 'r', 'f').atMs).toBeNull();
    expect(press(live, 'R', 'L').atMs).toBeNull();
  });

  it('B bookmarks the instant shown, b recalls it from anywhere', () => {
    const marked = press(live, 'R', 'B');
    expect(marked.bookmarkMs).toBe(latestMs - 10_000);
    expect(press(marked, 'L', 'b').atMs).toBe(latestMs - 10_000);
    expect(press(live, 'b')).toEqual(live);
    expect(press(live, 'B').bookmarkMs).toBe(latestMs);
  });

  it('does nothing before the first sample', () => {
    expect(applyScrub(live, { type: 'step', ticks: -1 }, { latestMs: null, tickSeconds: 1 })).toEqual(live);
  });

  it('ignores other keys, modified keys and key presses in form fields', () => {
    expect(scrubActionOf({ key: 'x' })).toBeNull();
    expect(scrubActionOf({ key: 'r', ctrlKey: true })).toBeNull();
    expect(scrubActionOf({ key: 'R', metaKey: true })).toBeNull();
    expect(isTypingTarget({ tagName: 'input' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('estimates the tick from the smallest gap between stream messages', () => {
    expect(tickFromGaps([10_000])).toBe(10);
    expect(tickFromGaps([1000, 2000, 1010])).toBe(1);
    expect(tickFromGaps([])).toBe(1);
    expect(tickFromGaps([0, -5], 2)).toBe(2);
  });
});
