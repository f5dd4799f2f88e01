import { describe, expect, it } from 'vitest';
import { notifyProps } from './useApiQuery.ts';

describe('notifyProps', () => {
  it('re-renders on the answer and its failure only while an answer shows', () => {
    expect(notifyProps({ data: { a: 1 }, error: null })).toEqual(['data', 'error']);
  });

  it('follows reads on their way while there is no answer to show, or a failure shows', () => {
    expect(notifyProps(undefined)).toContain('isFetching');
    expect(notifyProps({ data: undefined, error: null })).toContain('isFetching');
    expect(notifyProps({ data: { a: 1 }, error: new Error('down') })).toContain('isFetching');
  });

  it('adds what the caller watches', () => {
    expect(notifyProps({ data: 1, error: null }, ['updating'])).toEqual(['data', 'error', 'isFetching']);
    expect(notifyProps({ data: 1, error: null }, ['answeredAtMs'])).toEqual([
      'data',
      'error',
      'dataUpdatedAt',
    ]);
  });
});
