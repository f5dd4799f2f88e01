import { describe, expect, it } from 'vitest';
import { engineText, type RouteTables, tablesText } from './routeTables.ts';

const dump = {
  source: 'sm',
  from: 'lfts-dump',
  readAt: '2026-11-29T16:00:00Z',
} as unknown as RouteTables;

describe('whose tables a route follows', () => {
  it('names OpenSM’s dump, and does not call its tables "ibroute tables" beside the LIDs', () => {
    expect(tablesText(dump, Date.parse('2026-11-29T16:00:05Z'))).toMatch(
      /^subnet manager's \(opensm-lfts\.dump\)/,
    );
    expect(engineText('ibroute', dump)).toBeNull();
    expect(engineText('ftree', undefined)).toBe('ftree tables');
    expect(engineText('fattree', { source: 'computed', engine: 'fattree' } as unknown as RouteTables)).toBe(
      'fattree tables',
    );
    expect(engineText(undefined, dump)).toBeNull();
  });
});
