import { ApiError, errorFromResponse } from './apiError.ts';
import {
  type CompactDecode,
  type Exchange,
  type ExchangeAnswer,
  NetworkFailure,
} from './exchange/exchange.ts';
import { fetchExchange } from './exchange/fetchExchange.ts';
import { workerExchange } from './exchange/workerExchange.ts';

/** A refused GET is asked again this many times at most, and only after a wait of at most this. */
const MAX_ATTEMPTS = 12;
const MAX_RETRY_AFTER_S = 30;
/** Paths whose newest decoded compact message is held. */
const DECODED_KEPT = 2;

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface RequesterOptions {
  /** Prefix of every path; '' for the same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Bearer token for mutating requests, read at each call (it may change in Settings). */
  getToken?: () => string | null;
}

/** One call: `conditional` asks with the ETag held, `decode` decodes a compact answer where parsed. */
export interface Call {
  method: Method;
  path: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  conditional?: boolean;
  decode?: CompactDecode | undefined;
}

/** Resolves after `ms`, or rejects as an abort when `signal` fires first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** The error an answer that is not a success value carries, or null for a value. */
function failureOf(answer: ExchangeAnswer, call: Call, hadToken: boolean): Error | null {
  const { method, path } = call;
  if (answer.ok && answer.body.kind === 'text') {
    return new ApiError(`The API answered ${method} ${path} with something that is not JSON`, 0, 'parse');
  }
  // A compact message that did not decode: what compactSnapshotOf said of it.
  if (answer.body.kind === 'invalid') return new Error(answer.body.message);
  if (answer.ok) return null;
  const error = errorFromResponse(
    answer.status,
    answer.body.kind === 'json' ? answer.body.value : null,
    hadToken,
  );
  const retryAfter = Number(answer.retryAfter);
  if (answer.status === 503 && Number.isFinite(retryAfter) && retryAfter >= 0) {
    error.retryAfterSeconds = retryAfter;
  }
  return error;
}

/** Sends calls: reads through a worker, changes on the page; a GET refused with Retry-After is retried. */
export function createRequester(options: RequesterOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const getToken = options.getToken ?? (() => null);
  const pageExchange = fetchExchange(doFetch);
  const readExchange: Exchange = options.fetch ? pageExchange : workerExchange(pageExchange);
  /** A live GET's last answer and ETag by path: a 304 returns the same object without parsing a body. */
  const answers = new Map<string, { etag: string; value: unknown }>();
  /** The newest decoded compact message by path, with its number: an unchanged re-read is this object. */
  const decodedAnswers = new Map<string, { decoded: number; value: unknown }>();

  function keepDecoded(path: string, decoded: number, value: unknown): void {
    decodedAnswers.delete(path);
    decodedAnswers.set(path, { decoded, value });
    for (const oldest of decodedAnswers.keys()) {
      if (decodedAnswers.size <= DECODED_KEPT) break;
      decodedAnswers.delete(oldest);
    }
  }

  async function exchange(call: Call, headers: Record<string, string>, held: number | undefined) {
    const { method, path, body, decode } = call;
    try {
      return await (method === 'GET' ? readExchange : pageExchange)(
        {
          method,
          url: `${baseUrl}${path}`,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          noStore: call.conditional ?? false,
          ...(decode ? { decode: { ...decode, held } } : {}),
        },
        call.signal,
      );
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw new ApiError(`Cannot reach the API (${method} ${path}): ${error.text}`, 0, 'network');
    }
  }

  async function requestOnce<T>(call: Call): Promise<T> {
    const { method, path, decode } = call;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = method === 'GET' ? null : getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const held = call.conditional ? answers.get(path) : undefined;
    if (held) headers['If-None-Match'] = held.etag;
    const heldDecoded = decode ? decodedAnswers.get(path) : undefined;
    const answer = await exchange(call, headers, heldDecoded?.decoded);
    if (held && answer.status === 304) return held.value as T;
    const failure = failureOf(answer, call, token !== null && token !== '');
    if (failure) throw failure;
    if (answer.body.kind === 'unchanged') {
      if (heldDecoded && answer.decoded === heldDecoded.decoded) return heldDecoded.value as T;
      throw new Error(`The answer to ${path} was said unchanged from one this page does not hold`);
    }
    const parsed = answer.body.kind === 'json' ? answer.body.value : null;
    if (decode && answer.decoded !== undefined) keepDecoded(path, answer.decoded, parsed);
    if (call.conditional) {
      if (answer.etag) answers.set(path, { etag: answer.etag, value: parsed });
      else answers.delete(path);
    }
    return parsed as T;
  }

  /** A call; a GET the API refused for a while (503 with Retry-After) is asked again. */
  async function request<T>(call: Call): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce<T>(call);
      } catch (error) {
        const wait = error instanceof ApiError ? error.retryAfterSeconds : undefined;
        if (
          call.method !== 'GET' ||
          wait === undefined ||
          wait > MAX_RETRY_AFTER_S ||
          attempt >= MAX_ATTEMPTS
        ) {
          throw error;
        }
        await sleep(wait * 1000, call.signal);
      }
    }
  }

  return {
    request,
    get: <T>(path: string, signal?: AbortSignal) => request<T>({ method: 'GET', path, signal }),
    /** A live answer, asked again on ticks: conditional on the answer held. */
    live: <T>(path: string, signal?: AbortSignal) =>
      request<T>({ method: 'GET', path, signal, conditional: true }),
    /** A change (PUT, POST, DELETE), with the token. */
    send: <T>(method: Method, path: string, body?: unknown, signal?: AbortSignal) =>
      request<T>({ method, path, body, signal }),
  };
}

export type Requester = ReturnType<typeof createRequester>;
