import { describe, expect, it } from 'vitest';
import { applyKey, type KeyContext, type Keypress } from '../src/top/keys.ts';
import { initialViewState, modeOf, NO_HISTORY, type ViewState } from '../src/top/state.ts';

const times = Array.from({ length: 8 }, (_, i) => `2026-11-22T22:31:${String(10 + i).padStart(2, '0')}.000Z`);
const newest = times.at(-1) as string;
const withHistory: KeyContext = {
  features: { history: true, events: false },
  // The server's order is not assumed: shuffled here.
  history: [...times].reverse().map((time) => ({ time, hostTransmitBytesPerSecond: 1e9 })),
  shownTime: newest,
  pageRows: 11,
  moreLinks: true,
};
const withoutHistory: KeyContext = {
  ...withHistory,
  features: { history: false, events: false },
  history: null,
};

const typed = (sequence: string): Keypress => ({ sequence, name: sequence.toLowerCase() });
/** Types `keys` one after another, as readline reports them. */
function press(keys: string, context: KeyContext, state: ViewState = initialViewState) {
  let result = { state, quit: false, refetch: false };
  for (const k of keys) result = applyKey(result.state, typed(k), context);
  return result;
}

describe('fabscope top keys', () => {
  it('q, Q and Ctrl-C quit', () => {
    expect(press('q', withHistory).quit).toBe(true);
    expect(press('Q', withHistory).quit).toBe(true);
    expect(applyKey(initialViewState, { name: 'c', ctrl: true, sequence: '\x03' }, withHistory).quit).toBe(
      true,
    );
    expect(press('x', withHistory).quit).toBe(false);
  });

  it('g writes rates in bits, then in bytes again, without asking the server', () => {
    const bits = press('g', withHistory);
    expect(bits.state.rateUnit).toBe('bits');
    expect(bits.refetch).toBe(false);
    expect(press('gg', withHistory).state.rateUnit).toBe('bytes');
  });

  it('c steps forward through opatop criteria, C back; each asks the server again from the top', () => {
    const order = ['utilization', 'packets', 'utilizationLowest', 'wait', 'integrity', 'utilization'];
    let state: ViewState = { ...initialViewState, scroll: 22 };
    for (const expected of order.slice(1)) {
      const result = applyKey(state, typed('c'), withHistory);
      expect(result.state.sort).toBe(expected);
      expect(result.state.scroll).toBe(0);
      expect(result.refetch).toBe(true);
      state = result.state;
    }
    expect(press('C', withHistory).state.sort).toBe('integrity');
  });

  it('0, 1, 2 choose all links, ISLs, host links', () => {
    expect(press('1', withHistory).state.filter).toBe('isl');
    expect(press('12', withHistory).state.filter).toBe('host');
    expect(press('120', withHistory).state.filter).toBe('all');
    expect(press('1', withHistory).refetch).toBe(true);
  });

  it('s and S page through the ranking, not past either end', () => {
    expect(press('ss', withHistory).state.scroll).toBe(22);
    expect(press('ssS', withHistory).state.scroll).toBe(11);
    expect(press('SS', withHistory).state.scroll).toBe(0);
    const atEnd = press('s', { ...withHistory, moreLinks: false });
    expect(atEnd.state.scroll).toBe(0);
    expect(atEnd.state.message).toBe('end of the list');
  });

  it('? toggles help, u leaves it', () => {
    // e: opatop's error-category screen in place of the table; again (or u) back.
    expect(press('e', withHistory).state.showErrors).toBe(true);
    expect(press('ee', withHistory).state.showErrors).toBe(false);
    expect(press('eu', withHistory).state.showErrors).toBe(false);
    expect(press('e?', withHistory).state).toMatchObject({ showErrors: true, showHelp: true });
    expect(press('?', withHistory).state.showHelp).toBe(true);
    expect(press('??', withHistory).state.showHelp).toBe(false);
    expect(press('?u', withHistory).state.showHelp).toBe(false);
  });

  it('history keys on a server without history: a message, nothing else changes', () => {
    for (const key of 'LrRfFBbU') {
      const result = press(key, withoutHistory);
      expect(result.state).toEqual({ ...initialViewState, message: NO_HISTORY });
      expect(result.refetch).toBe(false);
    }
    expect(press('r', { ...withoutHistory, features: null }).state.message).toBe(
      'still asking the server whether it keeps history',
    );
    // Any other key clears the message.
    expect(press('r1', withoutHistory).state.message).toBeNull();
  });

  it('r/R go back 1/5 ticks, f/F forward, past the newest tick is live again', () => {
    expect(press('r', withHistory).state.time).toBe(times[6]);
    expect(modeOf(press('r', withHistory).state)).toBe('Hist');
    expect(press('rr', withHistory).state.time).toBe(times[5]);
    expect(press('R', withHistory).state.time).toBe(times[2]);
    expect(press('RR', withHistory).state.time).toBe(times[0]);
    expect(press('RRf', withHistory).state.time).toBe(times[1]);
    expect(press('RF', withHistory).state.time).toBeNull();
    expect(press('rf', withHistory).state.time).toBeNull();
    expect(press('Rrr', withHistory).state.time).toBe(times[0]);
    expect(press('RL', withHistory).state.time).toBeNull();
    expect(press('r', withHistory).refetch).toBe(true);
  });

  it('a tick that has aged out of the history steps from the nearest older one', () => {
    const state = { ...initialViewState, time: '2026-11-22T22:31:13.500Z' };
    expect(applyKey(state, typed('r'), withHistory).state.time).toBe(times[2]);
    expect(applyKey(state, typed('f'), withHistory).state.time).toBe(times[4]);
  });

  it('B bookmarks the tick on screen and freezes it, b recalls it, U removes it', () => {
    const marked = press('B', withHistory);
    expect(marked.state.bookmark).toBe(newest);
    expect(marked.state.time).toBe(newest);
    expect(modeOf(marked.state)).toBe('Bkmk');
    const away = press('BL', withHistory);
    expect(modeOf(away.state)).toBe('Live');
    expect(press('BLb', withHistory).state.time).toBe(newest);
    expect(press('rrBLb', withHistory).state.time).toBe(times[5]);
    expect(press('BU', withHistory).state.bookmark).toBeNull();
    expect(press('b', withHistory).state.message).toBe('no bookmark (B sets one)');
    expect(press('B', { ...withHistory, shownTime: null }).state.message).toBe(
      'nothing on screen to bookmark yet',
    );
  });

  it('an empty history says so', () => {
    const empty = { ...withHistory, history: [] };
    expect(press('r', empty).state.message).toBe('the server has no ticks in its history yet');
  });
});
