import { Type } from '@sinclair/typebox';

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

/** `limit` and `cursor`, spread into a route's query-string schema. */
export const PageQueryFields = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_MAX,
      description: `Rows per page (default ${PAGE_DEFAULT}, at most ${PAGE_MAX})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: CURSOR_PATTERN,
      description:
        'The `next` of the page before: reads on from the same list (the same instant, sorted and filtered as the first page asked). Other parameters may be left out or repeated unchanged; a cursor whose list is no longer held answers 410',
    }),
  ),
};

/** `total` and `next`, spread into a page's answer. */
export const PageAnswerFields = {
  total: Type.Integer({ description: 'Rows of the whole list, every page together (after filters)' }),
  next: Type.Optional(
    Type.String({ description: 'Cursor of the next page (`cursor=`); absent on the last page' }),
  ),
};
