import { DecodedTexts, decodedBody } from './compactDecode.ts';
import { bodyOf, type Exchange, isAbort, NetworkFailure } from './exchange.ts';

/** An exchange through `doFetch`; `texts` keeps what decoded answers were made of, to answer `unchanged`. */
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
