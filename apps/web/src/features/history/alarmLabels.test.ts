import { describe, expect, it } from 'vitest';
import { chartMarks, LABELLED_CROSSINGS } from '../../lib/events.ts';
import { fabricEvent } from '../../test/testFixtures.ts';
import { placeLabels } from './labelPlacement.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s)).toISOString();

/** The labels a 600 px chart shows for `events` over one minute. */
function labelled(events: ReturnType<typeof fabricEvent>[]): string[] {
  const marks = chartMarks(events, { minSeverity: 'info', kinds: null });
  const t0 = Date.parse(at(0)) / 1000;
  const boxes = placeLabels(
    marks.map((m) => ({ px: (m.x - t0) * 10, width: m.label.length * 6, priority: m.priority })),
    { widthPx: 600, rows: 3, heightPx: 14 },
  );
  return marks.filter((_, i) => boxes[i] !== null).map((m) => m.label);
}

describe('the history chart on a big fabric', () => {
  it('labels the alarm, not arbitrary crossings, when hundreds of directions cross at once', () => {
    const crossings = Array.from({ length: 974 }, (_, i) =>
      fabricEvent({
        time: at(10 + (i % 30)),
        kind: 'threshold',
        subject: `edge${i}/1->node${i}/1`,
        detail: 'congestion 1.2 × threshold',
        severity: 'warning',
      }),
    );
    const alarm = fabricEvent({
      time: at(10),
      kind: 'alarm',
      subject: 'fabric',
      detail: 'alarm raised: 679 host link directions over the congestion threshold',
      severity: 'warning',
    });
    const shown = labelled([...crossings, alarm]);
    expect(shown).toEqual(['alarm raised: 679 host link directions over the congestion threshold']);
  });

  it('still labels a few crossings on a small fabric', () => {
    const few = Array.from({ length: LABELLED_CROSSINGS }, (_, i) =>
      fabricEvent({
        time: at(i * 3),
        kind: 'threshold',
        subject: `e/${i}->n/${i}`,
        detail: 'x',
        severity: 'warning',
      }),
    );
    expect(labelled(few).length).toBeGreaterThan(0);
  });
});
