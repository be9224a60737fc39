/** The inputs of the unsubscribe link's routes (issue #52, RFC 8058): the token, and the one-click form body. */
import * as v from 'valibot';

/**
 * Any text: a token of the wrong shape is a link that opens nothing (404, its page), not a 400
 * (shared/store/email-consent.ts checks the shape before it looks).
 */
export const UnsubscribeParams = v.object({
  token: v.pipe(v.string(), v.description("The token of the link, from the email's List-Unsubscribe header or its footer.")),
});

/** RFC 8058's body; any other field (a multipart form's extras) is passed over. */
export const OneClickBody = v.object({
  'List-Unsubscribe': v.pipe(v.literal('One-Click', 'must be One-Click (RFC 8058)'), v.description('`One-Click`, as RFC 8058 has mail providers send it.')),
});
