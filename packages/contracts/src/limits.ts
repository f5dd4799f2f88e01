// Bounds of what the API and the emulator accept and list, as plain constants
// (`@fabscope/contracts/limits`): the web and the CLI ask for pages, and the emulator bounds a
// request's quantities, without loading a schema. Imports nothing.
//
// Lists of the API (`/links`, `/traffic`, `/jobs`, `/events`, `/links/flows`) come in pages, as the
// Kubernetes API's do (`limit` + `continue`): the first page pins what it was read from (a
// sampling tick, the flows as the emulator listed them), the `next` cursor reads on from that same
// list, and a list is read whole only by walking its pages or, for link directions, by the
// streamed export (`/links/export`).

/** Rows of a page when `limit` is not given. */
export const PAGE_DEFAULT = 500;
/** Most rows one page holds. */
export const PAGE_MAX = 5000;

/**
 * A cursor as the API writes it: a list's id (apps/api/src/http/listings.ts: 16 characters; the
 * emulator's flow listings for `/traffic`: `L` and a number), a dot, an offset in base 36.
 */
export const CURSOR_PATTERN = '^(?:[A-Za-z0-9_-]{16}|L[0-9a-z]{1,10})\\.[0-9a-z]{1,8}$';

/** How many flows of a POST /traffic answer are listed (the first ones, in the emulator's order). */
export const STARTED_FLOWS_LISTED = 20;

/**
 * Upper bounds of a request's quantities (durations, sizes, rates), in the API's schemas and the
 * emulator's reader alike: far beyond any real job, low enough that arithmetic on them stays
 * finite and a typo (`1e400MiB`) is refused with the field's name instead of poisoning the solver.
 */
export const MAX_DURATION_SECONDS = 366 * 24 * 3600;
export const MAX_SIZE_BYTES = 2 ** 40;
export const MAX_RATE_BYTES_PER_SECOND = 1e13;
