// Bounds of what the API and the emulator accept and list. Lists come in pages, as the Kubernetes
// API's do: the first page pins what it was read from, and the `next` cursor reads on from that list.

/** Rows of a page when `limit` is not given. */
export const PAGE_DEFAULT = 500;
/** Most rows one page holds. */
export const PAGE_MAX = 5000;

/** A cursor: a list's id (the API's 16 characters, or the emulator's `L` and a number), a dot, a base-36 offset. */
export const CURSOR_PATTERN = '^(?:[A-Za-z0-9_-]{16}|L[0-9a-z]{1,10})\\.[0-9a-z]{1,8}$';

/** How many flows of a POST /traffic answer are listed (the first ones, in the emulator's order). */
export const STARTED_FLOWS_LISTED = 20;

/**
 * Upper bounds of a request's durations, sizes and rates: far beyond any real job, low enough that
 * arithmetic stays finite and a typo (`1e400MiB`) is refused by name instead of poisoning the solver.
 */
export const MAX_DURATION_SECONDS = 366 * 24 * 3600;
export const MAX_SIZE_BYTES = 2 ** 40;
export const MAX_RATE_BYTES_PER_SECOND = 1e13;
