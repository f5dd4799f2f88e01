/** A refusal with its HTTP status (and, for 405, the methods allowed). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly allow?: string,
  ) {
    super(message);
  }
}
