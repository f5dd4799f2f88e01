import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revealTop } from './reveal.ts';

describe('a result brought where the user looks', () => {
  const view = { scrollY: 0, height: 1000, headerBottom: 100 };

  it('scrolls a result far down to just under the sticky header', () => {
    expect(revealTop({ top: 1800 }, view)).toBe(1800 - 100 - 8);
    expect(revealTop({ top: 1200 }, { ...view, scrollY: 400 })).toBe(400 + 1200 - 108);
  });

  it('leaves a result already in the top half of the view where it is', () => {
    expect(revealTop({ top: 150 }, view)).toBeNull();
    expect(revealTop({ top: 540 }, view)).toBeNull();
  });

  it('always lands the top of the result inside the view, never above the page', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5000, max: 20000 }),
        fc.integer({ min: 0, max: 20000 }),
        fc.integer({ min: 300, max: 2000 }),
        fc.integer({ min: 0, max: 200 }),
        (top, scrollY, height, headerBottom) => {
          const to = revealTop({ top }, { scrollY, height, headerBottom });
          if (to === null) return;
          expect(to).toBeGreaterThanOrEqual(0);
          const landed = top + scrollY - to;
          // Where the page allows (not above its start), the result starts just under the header.
          if (to > 0) expect(landed).toBe(headerBottom + 8);
        },
      ),
    );
  });
});
