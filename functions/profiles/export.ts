// GET /api/v1/profiles/{id}/export — everything held about one person, as one versioned JSON document (beyond the spec).
import { HttpError } from '../../shared/http/errors';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { exportProfile } from '../../shared/usecases/export-profile';
import * as routes from '../../shared/routes/profiles';

/**
 * Lambda answers at most 6 MB (6,291,456 bytes), counted on the whole result: the body as an escaped JSON
 * string inside it, its quotes doubled up. What stays below is left for the headers the stack adds.
 */
const MAX_RESULT_BYTES = 6_000_000;
const TOO_LARGE =
  "This person's export is larger than one API response can carry (6 MB); read their data through GET /api/v1/profiles/{id}/appointments, " +
  "/home-kit-orders and each appointment's results instead";

export const handler = httpHandler({
  route: routes.exportProfile,
  params: IdParams,
  async run({ params, access, now, baseUrl }) {
    const reply = ok(await exportProfile(params.id, { access, now }, baseUrl));
    // Refused whole rather than cut short: a partial export would look complete. Lambda itself would fail it with a 502.
    if (Buffer.byteLength(JSON.stringify(reply)) > MAX_RESULT_BYTES) throw new HttpError(413, TOO_LARGE);
    return reply;
  },
});
