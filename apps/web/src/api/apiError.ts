import type { ErrorBody } from '@fabscope/contracts';

/** A failed API call with a message fit to show; `status` 0 when unreachable or not JSON. */
export class ApiError extends Error {
  /** A 503's Retry-After: the API is busy and says when to ask again. */
  retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string';
}

/** Turns an HTTP error answer into an ApiError with a readable message. */
export function errorFromResponse(status: number, body: unknown, hadToken: boolean): ApiError {
  const detail = isErrorBody(body) ? (body.message ?? body.error) : undefined;
  const code = isErrorBody(body) ? body.error : `http_${status}`;
  if (status === 401) {
    const hint = hadToken
      ? 'The API rejected the API token. Check it in Settings.'
      : 'This API requires a token for changes. Enter the API token in Settings.';
    return new ApiError(`Unauthorized (401): ${hint}`, status, code);
  }
  if (status === 403) {
    return new ApiError(
      `Forbidden (403): ${detail ?? 'the API token may not make this change.'}`,
      status,
      code,
    );
  }
  const text = detail ?? (status >= 500 ? 'the API failed to answer' : 'the request was refused');
  return new ApiError(
    `${status >= 500 ? 'Server error' : 'Request failed'} (${status}): ${text}`,
    status,
    code,
  );
}

/** A readable message for anything an API call may throw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
