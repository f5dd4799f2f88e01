/** The server could not be asked, or answered something other than the API. */
export class TopClientError extends Error {
  override name = 'TopClientError';
}

/** The server answered with an error status. */
export class HttpError extends TopClientError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** No answer at all: refused, unresolvable, or too slow. */
export class ServerUnreachableError extends TopClientError {
  override name = 'ServerUnreachableError';
}
