/** Query parameters of the paged lists: `limit` (1–100, default 50) and the `cursor` of the previous page. */
import * as v from 'valibot';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export const PageQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      // Documented as what it is to a client: an integer query parameter (the pattern is the parser's business).
      v.metadata({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, pattern: undefined }),
      v.transform(Number),
      v.minValue(1, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
      v.maxValue(MAX_PAGE_SIZE, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
    ),
    String(DEFAULT_PAGE_SIZE),
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(8192, 'must be the X-Next-Cursor value of the previous page'))),
});
