import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePod, serializePod } from './podMatrix.ts';

describe('the pod in the URL', () => {
  it('round-trips every pod index; the first pod is no parameter', () => {
    fc.assert(
      fc.property(fc.nat({ max: 99_999 }), (pod) => {
        expect(parsePod(serializePod(pod))).toBe(pod);
      }),
    );
    expect(serializePod(0)).toBeNull();
    expect(serializePod(1)).toBe('2');
  });

  it('anything but a count from 1 is the first pod', () => {
    for (const raw of [null, '', '0', '-1', 'x', '1.5', '1e3', '9999999']) expect(parsePod(raw)).toBe(0);
  });
});
