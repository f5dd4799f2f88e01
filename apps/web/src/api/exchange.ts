import { type CompactDecode, DecodedTexts, decodedBody } from './compactDecode.ts';

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
  /** A successful answer is a compact message: decode it where it is parsed (compactDecode.ts). */
  decode?: CompactDecode | undefined;
}

export type AnswerBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  /** A body that is not JSON. */
  | { kind: 'text' }
  /** A body asked to be decoded (ExchangeRequest.decode) that could not be: why. */
  | { kind: 'invalid'; message: string }
  /** The text the answer the page holds was decoded from (CompactDecode.held), again: not read. */
  | { kind: 'unchanged' };

export interface ExchangeAnswer {
  status: number;
  ok: boolean;
  etag: string | null;
  retryAfter: string | null;
  body: AnswerBody;
  /** A decoded answer's number (DecodedTexts), which the page names as `held` asking again. */
  decoded?: number;
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

/**
 * An exchange through `doFetch` where it runs (the page, or the worker); `texts` keeps what the
 * decoded answers were made of, to answer `unchanged`.
 */
export function fetchExchange(doFetch: typeof fetch, texts = new DecodedTexts()): Exchange {
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
    const text = await response.text();
    const decode = request.decode;
    if (!decode || !response.ok) return { ...answer, body: bodyOf(text) };
    if (decode.held !== undefined && texts.same(request.url, decode.held, text))
      return { ...answer, body: { kind: 'unchanged' }, decoded: decode.held };
    const decoded = texts.remember(request.url, text);
    return { ...answer, body: decodedBody(bodyOf(text), decode), decoded };
  };
}
