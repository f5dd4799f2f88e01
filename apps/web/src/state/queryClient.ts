import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/apiError.ts';

/** The query cache: past answers stay fresh; following windows move by key, never by timer or focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // A refused question (4xx) is not asked again; a failed one once.
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1,
      },
    },
  });
}
