/**
 * One HTTP exchange with the API as the client reads it: the status, the two headers it uses and
 * the body already parsed. On the page (fetch) or in a worker (exchangeWorker.ts), so that the
 * dashboard's reads — re-asked on stream ticks — cost the page's main thread only their answer.
 */

export interface ExchangeRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body: string | null;
  /** Bypass the browser's HTTP cache (a conditional read: the client holds the answer itself). */
  noStore: boolean;
}

export type AnswerBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  /** A body that is not JSON. */
  | { kind: 'text' };

export interface ExchangeAnswer {
  status: number;
  ok: boolean;
  etag: string | null;
  retryAfter: string | null;
  body: AnswerBody;
}

/** The API could not be reached (`text`: what fetch said, e.g. "TypeError: Failed to fetch"). */
export class NetworkFailure extends Error {
  constructor(readonly text: string) {
    super(text);
    this.name = 'NetworkFailure';
  }
}

export type Exchange = (request: ExchangeRequest, signal?: AbortSignal) => Promise<ExchangeAnswer>;

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A body's text read as the client reads it: empty, JSON, or not JSON. */
export function bodyOf(text: string): AnswerBody {
  if (text === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'text' };
  }
}

/** An exchange through `doFetch` where it runs (the page, or the worker). */
export function fetchExchange(doFetch: typeof fetch): Exchange {
  return async (request, signal) => {
    let response: Response;
    try {
      response = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: signal ?? null,
        ...(request.noStore ? { cache: 'no-store' as const } : {}),
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new NetworkFailure(String(error));
    }
    const answer = {
      status: response.status,
      ok: response.ok,
      etag: response.headers.get('etag'),
      retryAfter: response.headers.get('retry-after'),
    };
    // A 304 has no body to read (the client gives the answer it holds).
    if (response.status === 304) return { ...answer, body: { kind: 'empty' } };
    return { ...answer, body: bodyOf(await response.text()) };
  };
}
