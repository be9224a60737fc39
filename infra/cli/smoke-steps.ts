/**
 * What the smoke test (smoke-cli.ts) is made of: its steps, each printed as one line, and its HTTP client.
 * Only Node's own fetch and nothing of the service, so it runs against any deployed stage from any machine
 * with `npm ci` done. A step never prints a key or a response body: only statuses, ids, counts and the
 * service's `{"error": …}` message.
 */

/** A step's check found the stage wrong: its message is the reason printed after `FAIL <step>:`. */
export class StepFailed extends Error {}

export type Outcome = 'ok' | 'FAIL' | 'skip';

/** Runs steps and prints one line each: `ok   <step> <detail> (<ms> ms)`, `FAIL <step>: <reason>`, `skip <step>: <reason>`. */
export class Steps {
  readonly outcomes: Outcome[] = [];

  constructor(private readonly print: (line: string) => void) {}

  /** Runs `check` (which answers the detail of its ok line); answers whether it passed. */
  async run(name: string, check: () => Promise<string>): Promise<boolean> {
    const started = performance.now();
    try {
      const detail = await check();
      this.outcomes.push('ok');
      this.print(`ok   ${name}${detail ? ` ${detail}` : ''} (${Math.round(performance.now() - started)} ms)`);
      return true;
    } catch (error) {
      this.outcomes.push('FAIL');
      this.print(`FAIL ${name}: ${reasonOf(error)}`);
      return false;
    }
  }

  skip(name: string, reason: string): void {
    this.outcomes.push('skip');
    this.print(`skip ${name}: ${reason}`);
  }

  /** Steps that build on one another: after the first that fails, the others are skipped. */
  chain(): Chain {
    return new Chain(this);
  }

  count(outcome: Outcome): number {
    return this.outcomes.filter((o) => o === outcome).length;
  }
}

/** Steps that build on one another: after the first that fails, the others are skipped, naming it. */
export class Chain {
  constructor(
    private readonly steps: Steps,
    private failed?: string,
  ) {}

  async run(name: string, check: () => Promise<string>): Promise<boolean> {
    if (this.failed) {
      this.steps.skip(name, `${this.failed} failed`);
      return false;
    }
    const passed = await this.steps.run(name, check);
    if (!passed) this.failed = name;
    return passed;
  }

  /** A chain that goes on from this one, apart from its other continuations: skipped from the start if this one failed. */
  fork(): Chain {
    return new Chain(this.steps, this.failed);
  }

  /** A chain after this one and `other`: skipped from the start if either failed. */
  and(other: Chain): Chain {
    return new Chain(this.steps, this.failed ?? other.failed);
  }
}

/** An error as one short line: the check's reason, or what went wrong with the connection. */
export function reasonOf(error: unknown): string {
  if (error instanceof StepFailed) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${(error.cause as Error & { code?: string }).code ?? error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

const REQUEST_TIMEOUT_MS = 30_000;

export interface Answer {
  status: number;
  contentType: string;
  bytes: Buffer;
  /** The body as JSON (a StepFailed when it is not JSON). */
  json(): unknown;
}

/** The deployed API at `base` (its origin and stage path), called with `key` unless a call says otherwise. */
export class Api {
  constructor(
    readonly base: string,
    private readonly key: string | undefined,
  ) {}

  /** One request; `key: null` sends none. */
  async call(method: string, path: string, { body, key = this.key }: { body?: unknown; key?: string | null } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (key) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      bytes,
      json: () => {
        try {
          return JSON.parse(bytes.toString('utf8')) as unknown;
        } catch {
          throw new StepFailed(`${method} ${pathOnly(path)} answered ${response.status} with a body that is not JSON`);
        }
      },
    };
  }

  /** One request that must answer `status`; otherwise a StepFailed naming the request, the status and the service's error message. */
  async expect(method: string, path: string, status: number, options: { body?: unknown; key?: string | null } = {}): Promise<Answer> {
    const answer = await this.call(method, path, options);
    if (answer.status !== status) throw unexpected(method, path, answer, status);
    return answer;
  }
}

/** The failure of a request answered another status than expected: the request, the status and the service's error message. */
export function unexpected(method: string, path: string, answer: Answer, expected: number): StepFailed {
  return new StepFailed(`${method} ${pathOnly(path)} answered ${answer.status}${errorOf(answer)}, expected ${expected}`);
}

const pathOnly = (path: string) => path.split('?')[0];

/** `: <the service's error message>` when the body is `{"error": "…"}` (never the rest of a body), else nothing. */
function errorOf(answer: Answer): string {
  if (!answer.contentType.includes('json')) return '';
  try {
    const error = (JSON.parse(answer.bytes.toString('utf8')) as { error?: unknown }).error;
    return typeof error === 'string' ? ` (${error.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}

/** A JSON object read from an answer, checked: the smoke test trusts no shape it has not looked at. */
export function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new StepFailed(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new StepFailed(`${what} is not a JSON array`);
  return value;
}

export function text(value: Record<string, unknown>, field: string, what: string): string {
  const found = value[field];
  if (typeof found !== 'string') throw new StepFailed(`${what} has no ${field}`);
  return found;
}
