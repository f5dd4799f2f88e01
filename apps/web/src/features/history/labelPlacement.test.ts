import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LabelBox, placeLabels } from './labelPlacement.ts';

/** Whether two boxes share any area (touching edges do not). */
function boxesIntersect(a: LabelBox, b: LabelBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const layout = { widthPx: 800, rows: 3, heightPx: 14 };
const marks = fc.array(
  fc.record({
    px: fc.oneof(fc.double({ min: -50, max: 850, noNaN: true }), fc.integer({ min: 0, max: 800 })),
    width: fc.double({ min: 1, max: 900, noNaN: true }),
    priority: fc.integer({ min: 0, max: 3 }),
  }),
  { maxLength: 60 },
);

describe('label placement', () => {
  it('never lets two label boxes intersect, and keeps every box inside the plot', () => {
    fc.assert(
      fc.property(marks, fc.integer({ min: 0, max: 5 }), (ms, rows) => {
        const boxes = placeLabels(ms, { ...layout, rows });
        expect(boxes).toHaveLength(ms.length);
        const placed = boxes.filter((b): b is LabelBox => b !== null);
        for (const b of placed) {
          expect(b.x).toBeGreaterThanOrEqual(0);
          expect(b.x + b.width).toBeLessThanOrEqual(layout.widthPx);
          expect(b.y + b.height).toBeLessThanOrEqual(rows * (layout.heightPx + 2));
        }
        for (let i = 0; i < placed.length; i++)
          for (let j = i + 1; j < placed.length; j++)
            expect(boxesIntersect(placed[i] as LabelBox, placed[j] as LabelBox)).toBe(false);
      }),
    );
  });

  it('labels marks of higher priority first when rows run out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 700 }), fc.integer({ min: 2, max: 40 }), (px, crowd) => {
        // A crowd of threshold marks at the same place, and one adaptive-routing change among them.
        const ms = [
          ...Array.from({ length: crowd }, () => ({ px, width: 90, priority: 1 })),
          { px, width: 90, priority: 10 },
        ];
        const boxes = placeLabels(ms, { ...layout, rows: 1 });
        expect(boxes.at(-1)).not.toBeNull();
      }),
    );
  });

  it('puts a label right of its mark, left of it at the right edge, in the next row when taken', () => {
    const boxes = placeLabels(
      [
        { px: 100, width: 50, priority: 0 },
        { px: 110, width: 50, priority: 0 },
        { px: 780, width: 50, priority: 0 },
        { px: 400, width: 900, priority: 0 },
      ],
      layout,
    );
    expect(boxes).toEqual([
      { x: 104, y: 0, width: 50, height: 14 },
      { x: 114, y: 16, width: 50, height: 14 },
      { x: 726, y: 0, width: 50, height: 14 },
      null,
    ]);
  });

  it('is deterministic: the same marks in another order get the same boxes', () => {
    fc.assert(
      fc.property(marks, (ms) => {
        const forward = placeLabels(ms, layout);
        const reversed = placeLabels([...ms].reverse(), layout).reverse();
        const key = (b: LabelBox | null) => (b ? `${b.x},${b.y}` : '-');
        // Equal marks may swap boxes: compare the boxes each mark value got as a multiset.
        const byMark = (bs: (LabelBox | null)[]) =>
          ms.map((m, i) => `${m.px}|${m.width}|${m.priority}|${key(bs[i] ?? null)}`).sort();
        expect(byMark(reversed)).toEqual(byMark(forward));
      }),
    );
  });
});
