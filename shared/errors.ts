/**
 * The ways an operation can refuse, named once and free of any transport: domain rules, the store, auth
 * and the use cases throw these; only shared/http knows which HTTP status each one answers
 * (shared/http/errors.ts). A message is read by API clients: say what was wrong and what is allowed,
 * never quote patient data.
 */
export abstract class LabError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule (a field's format, a date in the past, a window too narrow). */
export class InvalidInput extends LabError {}

/** The caller could not be identified (no key, an unknown or a revoked one). */
export class NotAuthenticated extends LabError {}

/** The caller is known but may not do this (a scope it lacks, a resource outside its access context). */
export class NotPermitted extends LabError {}

/** The resource named by the request does not exist (or is not active). */
export class NotFound extends LabError {}

/** The resource exists but its state does not allow this (or changed while the request ran). */
export class Conflict extends LabError {}

/** The operation cannot be done now; the same request may succeed later. */
export class Unavailable extends LabError {}

/** What the request names existed but is no longer valid (a patient link past its expiry, issue #53). */
export class Gone extends LabError {}

/** The caller made too many requests; the same request may succeed after `retryAfterSeconds`. */
export class TooManyRequests extends LabError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
