import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyInSlices } from '../src/lib/sliced.ts';

/** What a stream message holds: numbers (NaN and ±Infinity too), nulls, strings, nested objects, long arrays. */
const element = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constant(null),
  fc.string(),
  fc.tuple(fc.nat(), fc.double(), fc.option(fc.double())),
  fc.record({ id: fc.string(), value: fc.option(fc.double()) }),
);
const message = fc.dictionary(
  fc.string(),
  fc.oneof(
    fc.array(element, { maxLength: 300 }),
    element,
    fc.constant(undefined),
    fc.record({ histogram: fc.array(fc.nat(), { maxLength: 10 }) }),
  ),
);

describe('stringifyInSlices', () => {
  it("writes JSON.stringify's text for any message, whatever the slice length", async () => {
    await fc.assert(
      fc.asyncProperty(message, fc.integer({ min: 1, max: 64 }), async (value, perSlice) => {
        expect(await stringifyInSlices(value, perSlice)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the event loop turns while it writes a long array', async () => {
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const values = Array.from({ length: 200_000 }, (_, i) => i / 7);
    const text = await stringifyInSlices({ values }, 10_000);
    clearInterval(counting);
    expect(text).toBe(JSON.stringify({ values }));
    expect(turns).toBeGreaterThan(0);
  });
});
