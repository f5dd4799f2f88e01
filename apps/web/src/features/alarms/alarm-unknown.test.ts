import type { Alarm } from '@fabscope/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatClock } from '../../lib/format.ts';
import { AlarmUnknown } from './AlarmUnknown.tsx';
import { memberValueText, summaryShown, unknownNote } from './alarm-unknown.ts';

// An alarm whose value turned unknown stays raised; the list says so, since when and why, never a cleared look.
const SINCE = '2026-11-29T12:04:10.000Z';
const NOW = Date.parse(SINCE) + 60_000;
const REASON = 'XmitWait saturated since 12:04:10 — congestion unknown';
const unknown: Alarm['unknown'] = { count: 1, since: SINCE, reason: REASON };
const at = formatClock(Date.parse(SINCE), NOW);

describe('the alarms list: an alarm whose value is unknown', () => {
  it('notes how many directions, since when and the reason the API gave', () => {
    expect(unknownNote(unknown, NOW)).toBe(`1 direction's value unknown since ${at}: ${REASON}`);
    expect(unknownNote({ ...unknown, count: 3 } as Alarm['unknown'], NOW)).toMatch(
      /^3 directions' values unknown since /,
    );
    expect(unknownNote(undefined, NOW)).toBeNull();
  });

  it('shows the note as a status with a "value unknown" chip, and nothing while every value is known', () => {
    const html = renderToStaticMarkup(createElement(AlarmUnknown, { unknown, nowMs: NOW }));
    expect(html).toContain('role="status"');
    expect(html).toContain('value unknown');
    expect(html).toContain(REASON);
    expect(renderToStaticMarkup(createElement(AlarmUnknown, { unknown: undefined, nowMs: NOW }))).toBe('');
  });

  it('gives a member its last value and why it is unknown, a known member its value', () => {
    const member = { id: 'edge1/4->core2/1', value: 3.5, severity: 'error' as const };
    expect(memberValueText(member, NOW)).toBe('3.50 × threshold');
    expect(memberValueText({ ...member, unknownSince: SINCE, unknownReason: REASON }, NOW)).toBe(
      `unknown since ${at} (last 3.50 × threshold): ${REASON}`,
    );
  });

  it('drops the summary’s unknown tail the note replaces, and only that', () => {
    const summary = `1 host link direction over the congestion threshold; 1 unknown since 12:04:10: ${REASON}`;
    expect(summaryShown(summary, unknown)).toBe('1 host link direction over the congestion threshold');
    expect(summaryShown('2 ISL directions over the integrity threshold', undefined)).toBe(
      '2 ISL directions over the integrity threshold',
    );
  });
});
