import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/apiError.ts';
import { createQueryClient } from './queryClient.ts';

describe('query client', () => {
  const { queries } = createQueryClient().getDefaultOptions();
  const retry = queries?.retry;
  if (typeof retry !== 'function') throw new Error('retry is not a policy function');

  it('never asks a refused question again; a failed one once', () => {
    expect(retry(0, new ApiError('Request failed (400): time is empty', 400, 'Bad Request'))).toBe(false);
    expect(retry(0, new ApiError('Request failed (409): no history', 409, 'Conflict'))).toBe(false);
    expect(retry(0, new ApiError('Server error (503)', 503, 'http_503'))).toBe(true);
    expect(retry(0, new ApiError('Cannot reach the API', 0, 'network'))).toBe(true);
    expect(retry(1, new ApiError('Cannot reach the API', 0, 'network'))).toBe(false);
  });

  it('keeps answers about the past and never re-asks on focus or reconnect', () => {
    expect(queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchOnReconnect).toBe(false);
  });
});
