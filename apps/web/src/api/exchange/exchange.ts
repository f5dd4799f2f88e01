import type { TierGroups } from '../../lib/tierGroups.ts';

/** One HTTP exchange as the client reads it: status, two headers and the parsed body. */

export interface ExchangeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  /** Bypass the browser's HTTP cache (a conditional read: the client holds the answer itself). */
  noStore: boolean;
  /** A successful answer is a compact message: decode it where it is parsed (compactDecode.ts). */
  decode?: CompactDecode | undefined;
}

/** How a past instant's compact answer is checked against the drawn topology, and whether it gets tiers. */
export interface CompactDecode {
  channels?: number | undefined;
  tiers?: TierGroups | undefined;
  /** The number of the decoded answer the page holds: the same text again answers `unchanged`. */
  held?: number | undefined;
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
