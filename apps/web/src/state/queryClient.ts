import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/apiError.ts';

/**
 * The query cache for answers about the past (instants, histories, events). Answers about a past
 * instant do not change, so they stay fresh; what follows now is re-asked by changing its key (the
 * window moves on the stream's tick), never by a timer or window focus.
 */
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
