import { describe, expect, it } from 'vitest';
import { parseRange } from '../../lib/timeRange.ts';
import { presetsOffered } from './presetsOffered.ts';

const keys = (kept: { seconds: number | null } | null, range = parseRange(null)) =>
  presetsOffered(kept, range).map((p) => p.key);

describe('the presets offered', () => {
  it('reach as far back as the store holds: an hour in memory, a day on disk, all with a TSDB', () => {
    expect(keys(null)).toEqual(['5m', '15m', '1h']);
    expect(keys({ seconds: 3600 })).toEqual(['5m', '15m', '1h']);
    expect(keys({ seconds: 86_400 })).toEqual(['5m', '15m', '1h', '6h', '24h']);
    expect(keys({ seconds: null })).toEqual(['5m', '15m', '1h', '6h', '24h', '7d']);
  });

  it('keep the range the URL chose, though the store holds less', () => {
    expect(keys({ seconds: 3600 }, parseRange('7d'))).toEqual(['5m', '15m', '1h', '7d']);
  });

  it('read 24h and 7d back from the URL', () => {
    expect(parseRange('24h')).toEqual({ kind: 'preset', key: '24h', seconds: 86_400 });
    expect(parseRange('7d')).toEqual({ kind: 'preset', key: '7d', seconds: 604_800 });
  });
});
