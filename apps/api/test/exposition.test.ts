import { describe, expect, it } from 'vitest';
import { parseExposition } from './oracles/exposition-chunks.ts';

describe('parseExposition', () => {
  it('reads names, escaped labels and special values, skipping comments', () => {
    const text = [
      '# HELP x_total A counter',
      '# TYPE x_total counter',
      'x_total{a="1",b="quote \\" and \\\\ and \\n"} 12000000000',
      'up 1 1700000000000',
      'y{} +Inf',
      'z NaN',
      '',
    ].join('\n');
    const samples = parseExposition(text);
    expect(samples[0]).toEqual({
      name: 'x_total',
      labels: { a: '1', b: 'quote " and \\ and \n' },
      value: 12e9,
    });
    expect(samples[1]).toEqual({ name: 'up', labels: {}, value: 1 });
    expect(samples[2]?.value).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isNaN(samples[3]?.value)).toBe(true);
  });

  it('keeps only wanted metrics when asked', () => {
    expect(parseExposition('a 1\nb 2\n', new Set(['b']))).toEqual([{ name: 'b', labels: {}, value: 2 }]);
  });

  it('names the line of malformed input', () => {
    expect(() => parseExposition('a 1\nb{x="1} 2\n')).toThrow(/line 2: unterminated/);
    expect(() => parseExposition('a 1\n\nb zz\n')).toThrow(/line 3: bad value "zz"/);
  });
});
