/**
 * The HTTP side of errors. The operations throw the transport-neutral errors of shared/errors.ts; this
 * module says which status each one answers, and adds the few refusals only HTTP has (a content type,
 * an Idempotency-Key reused or still running). The error stage (shared/http/middlewares.ts) uses both.
 */
import { Conflict, InvalidInput, type LabError, NotAuthenticated, NotFound, NotPermitted, Unavailable } from '../errors';

/** A refusal that exists only at the HTTP edge, with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}

const STATUS_OF = new Map<abstract new (message: string) => LabError, number>([
  [InvalidInput, 400],
  [NotAuthenticated, 401],
  [NotPermitted, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Unavailable, 503],
]);

/** The status a transport-neutral error answers; undefined for an error that is not one of ours. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpError) return error.statusCode;
  for (const [kind, status] of STATUS_OF) if (error instanceof kind) return status;
  return undefined;
}
