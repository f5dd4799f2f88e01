import { compressHostList } from '@fabscope/contracts/names';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandHostList } from '../src/jobs/hostlist.ts';

// Host names as sites write them: a prefix, a number (some zero-padded), sometimes a suffix.
const hostName = fc
  .tuple(
    fc.constantFrom('node', 'cn', 'host', 'rack1-n', 'gpu', 'login', 'a'),
    fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
    fc.integer({ min: 0, max: 4 }),
    fc.constantFrom('', '', '-ib', 'x'),
  )
  .map(([head, n, pad, tail]) =>
    n === null ? `${head}${tail}` : `${head}${String(n).padStart(pad, '0')}${tail}`,
  );

describe('compressHostList against the API’s Slurm host-list expansion', () => {
  it('expands back to exactly the names given, each once', () => {
    fc.assert(
      fc.property(fc.array(hostName, { maxLength: 200 }), (names) => {
        const compressed = compressHostList(names);
        const expanded = compressed === '' ? [] : expandHostList(compressed);
        expect(new Set(expanded).size).toBe(expanded.length);
        expect([...expanded].sort()).toEqual([...new Set(names)].sort());
        // Written once, it is already as short as it gets: compressing its expansion gives it back.
        expect(compressHostList(expanded)).toBe(compressed);
      }),
      { numRuns: 500 },
    );
  });

  it('a contiguous block of hosts is one range, whatever order they came in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 3000 }), (from, count) => {
        const names = Array.from({ length: count }, (_, i) => `host${from + count - 1 - i}`);
        const compressed = compressHostList(names);
        expect(compressed).toBe(count === 1 ? `host${from}` : `host[${from}-${from + count - 1}]`);
        expect(expandHostList(compressed)).toHaveLength(count);
      }),
      { numRuns: 100 },
    );
  });
});
