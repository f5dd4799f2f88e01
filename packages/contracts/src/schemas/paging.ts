import { Type } from '@sinclair/typebox';
import { CURSOR_PATTERN, PAGE_DEFAULT, PAGE_MAX } from '../limits.ts';

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
