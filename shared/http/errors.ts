/**
 * The errors a request can end with, named once. Anything may throw them; the error stage of the Middy
 * stack (shared/http/error-responses.ts) turns each into `{ "error": message }` with its status.
 * Messages are read by API clients: say what was wrong and what is allowed, never echo patient data.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'A valid x-api-key header is required') {
    super(401, message);
  }
}

export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}

export class ServiceUnavailable extends HttpError {
  constructor(message: string) {
    super(503, message);
  }
}
