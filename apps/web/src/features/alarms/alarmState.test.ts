import type { Alarm } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { alarmCounts, alarmCountsText, alarmLook } from './alarmState.ts';

const alarm = (over: Partial<Alarm>): Alarm => ({
  id: 'congestion/host@1',
  category: 'congestion',
  linkKind: 'host',
  state: 'active',
  severity: 'warning',
  count: 679,
  summary: '679 host link directions over the congestion threshold',
  members: [],
  raisedAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  clearedAt: null,
  acknowledged: null,
  ...over,
});

describe('alarm counts and looks', () => {
  it('counts active alarms by severity, acknowledged ones apart, cleared ones not at all', () => {
    const counts = alarmCounts([
      alarm({ severity: 'critical' }),
      alarm({ severity: 'critical' }),
      alarm({ severity: 'warning' }),
      alarm({ severity: 'error', acknowledged: { by: 'alice', at: '2026-11-29T10:01:00.000Z' } }),
      alarm({ state: 'cleared', clearedAt: '2026-11-29T10:02:00.000Z' }),
    ]);
    expect(counts).toEqual({ open: { critical: 2, error: 0, warning: 1 }, acknowledged: 1, cleared: 1 });
    expect(alarmCountsText(counts)).toBe('2 critical · 1 warning · 1 acknowledged');
    expect(alarmCountsText(alarmCounts([]))).toBe('none');
  });

  it('draws red only an active alarm nobody acknowledged; a cleared one keeps its severity word', () => {
    expect(alarmLook(alarm({ severity: 'error' }))).toEqual({ chip: 'error', tone: 'error', state: 'open' });
    expect(
      alarmLook(alarm({ severity: 'error', acknowledged: { by: 'a', at: '2026-11-29T10:01:00.000Z' } })).tone,
    ).toBe('acknowledged');
    expect(alarmLook(alarm({ state: 'cleared', severity: 'critical' }))).toMatchObject({
      chip: 'critical · cleared',
      tone: 'info',
    });
  });
});
