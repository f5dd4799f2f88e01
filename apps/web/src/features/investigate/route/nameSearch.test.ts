import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchNames } from './nameSearch.ts';

const hosts = Array.from({ length: 13_824 }, (_, i) => `node${i + 1}`);

describe('matchNames', () => {
  it('offers a page of names, not thousands', () => {
    const { matches, total } = matchNames(hosts, '', 50);
    expect(matches).toHaveLength(50);
    expect(total).toBe(13_824);
  });

  it('puts names starting with the query before names containing it', () => {
    const { matches, total } = matchNames(['anode12', 'node12', 'node120', 'node3'], 'NODE12', 10);
    expect(matches).toEqual(['node12', 'node120', 'anode12']);
    expect(total).toBe(3);
  });

  it('finds the one host typed in full among 13,824', () => {
    expect(matchNames(hosts, 'node6912', 50).matches[0]).toBe('node6912');
  });

  it('returns only names containing the query, at most the limit, counting all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-c]{1,5}$/), { maxLength: 80 }),
        fc.stringMatching(/^[a-c]{0,2}$/),
        fc.integer({ min: 1, max: 20 }),
        (names, query, limit) => {
          const { matches, total } = matchNames(names, query, limit);
          const expected = names.filter((n) => n.includes(query));
          return (
            matches.length === Math.min(limit, expected.length) &&
            total === expected.length &&
            matches.every((m) => m.includes(query))
          );
        },
      ),
    );
  });
});
