/**
 * The service's log: one JSON object per line, `level`, `message`, `timestamp` and `service` first, then
 * the Lambda invocation it belongs to (`cold_start`, `function_name`, `function_memory_size`,
 * `function_arn`, `function_request_id`, `xray_trace_id`), then the line's own attributes. Log ids, routes,
 * statuses and durations; never names, emails, phones, birth dates, results or request bodies.
 *
 * Written here, not with Powertools Logger (issue #33): we write a handful of flat lines, and the library
 * added 22 KB (with its commons) to every function's bundle, a third of what the bundle target leaves a
 * keyed route, and 20–40 µs of CPU to every request, for its per-invocation bookkeeping (docs/dependencies.md).
 * The shape of its lines and its variables stay: POWERTOOLS_SERVICE_NAME, and the level: the stricter of
 * POWERTOOLS_LOG_LEVEL and Lambda's AWS_LAMBDA_LOG_LEVEL (INFO when neither names one), read once when this
 * module loads. No function sets Lambda's own application log level (test/infra/stack.test.ts): Lambda reads a
 * line without a level, as the metrics lines are, as INFO, and would drop them under a stricter one.
 *
 * The invocation is kept per call chain (AsyncLocalStorage), not in one variable: the local server runs
 * every route's handler in one process, many at once, and each line must name its own function and request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { isoTimestamp } from './iso-timestamp';

/** Powertools' levels and their order; SILENT writes nothing. */
const LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
export type LogLevel = keyof typeof LEVELS;
type Attributes = Record<string, unknown>;

const isLevel = (name: string): name is LogLevel => Object.hasOwn(LEVELS, name);

/**
 * The stricter of the levels the two variables name (INFO when neither does): Lambda itself drops lines
 * below AWS_LAMBDA_LOG_LEVEL, so we do not write them (Lambda's FATAL is our CRITICAL). An unknown name is
 * passed over, so a typo never silences the log.
 */
function levelOfEnvironment(): LogLevel {
  const named = ['POWERTOOLS_LOG_LEVEL', 'AWS_LAMBDA_LOG_LEVEL']
    .map((variable) =>
      (process.env[variable] ?? '')
        .trim()
        .toUpperCase()
        .replace(/^FATAL$/, 'CRITICAL'),
    )
    .filter(isLevel);
  return named.length === 0 ? 'INFO' : named.reduce((stricter, level) => (LEVELS[level] > LEVELS[stricter] ? level : stricter));
}

/** The X-Ray trace id of the running invocation, which Lambda sets in the environment before each. */
function traceIdOfEnvironment(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  return header ? header.split(';')[0]!.replace('Root=', '') : undefined;
}

/** The invocation's part of a line: what Powertools' injectLambdaContext added, under the same names. */
interface InvocationFields {
  cold_start: boolean;
  function_name?: string;
  function_memory_size?: string;
  function_arn?: string;
  function_request_id?: string;
  xray_trace_id?: string;
}

const invocations = new AsyncLocalStorage<InvocationFields>();
let coldStart = true;

class JsonLogger {
  readonly #service = process.env.POWERTOOLS_SERVICE_NAME || 'lab-api';
  #level: LogLevel = levelOfEnvironment();

  getLevelName(): LogLevel {
    return this.#level;
  }

  setLogLevel(level: LogLevel): void {
    this.#level = level;
  }

  /** Whether a line of this level is written: for a caller that would otherwise build the line for nothing. */
  writes(level: Exclude<LogLevel, 'SILENT'>): boolean {
    return LEVELS[level] >= LEVELS[this.#level];
  }

  trace(message: string, attributes?: Attributes): void {
    this.#write('TRACE', message, attributes);
  }

  debug(message: string, attributes?: Attributes): void {
    this.#write('DEBUG', message, attributes);
  }

  info(message: string, attributes?: Attributes): void {
    this.#write('INFO', message, attributes);
  }

  warn(message: string, attributes?: Attributes): void {
    this.#write('WARN', message, attributes);
  }

  error(message: string, attributes?: Attributes): void {
    this.#write('ERROR', message, attributes);
  }

  critical(message: string, attributes?: Attributes): void {
    this.#write('CRITICAL', message, attributes);
  }

  #write(level: Exclude<LogLevel, 'SILENT'>, message: string, attributes: Attributes | undefined): void {
    if (!this.writes(level)) return;
    // Outside an invocation (a module's load, a test), the trace id alone, as Powertools wrote it on every line.
    const invocation = invocations.getStore() ?? { xray_trace_id: traceIdOfEnvironment() };
    const timestamp = isoTimestamp(Date.now());
    // One object per line, the line's own fields last.
    const lineWith = (fields: Attributes | undefined) => JSON.stringify({ level, message, timestamp, service: this.#service, ...invocation, ...fields });
    let line: string;
    try {
      line = lineWith(attributes);
    } catch (error) {
      // A cycle or a BigInt: the line is still written, without its attributes, and never throws into the request.
      line = lineWith({ log_error: `attributes not serializable: ${(error as Error).name}` });
    }
    // As Powertools' Console wrote: warnings and errors to stderr, the rest to stdout; Lambda reads both.
    (LEVELS[level] >= LEVELS.WARN ? process.stderr : process.stdout).write(`${line}\n`);
  }
}

export const logger = new JsonLogger();

type InvocationContext = Partial<Pick<Context, 'functionName' | 'memoryLimitInMB' | 'invokedFunctionArn' | 'awsRequestId'>>;

/**
 * Runs one invocation of a handler with its Lambda context on every line written inside it, however
 * many others run at the same time. The first invocation of the container is its cold start. What the
 * context lacks (a test's bare one) is left out of the lines.
 */
export function withInvocation<T>(context: InvocationContext | undefined, run: () => T): T {
  const fields: InvocationFields = {
    cold_start: coldStart,
    function_name: context?.functionName,
    function_memory_size: context?.memoryLimitInMB === undefined ? undefined : String(context.memoryLimitInMB),
    function_arn: context?.invokedFunctionArn,
    function_request_id: context?.awsRequestId,
    xray_trace_id: traceIdOfEnvironment(),
  };
  coldStart = false;
  return invocations.run(fields, run);
}

/**
 * A Lambda handler outside HTTP (an event's, a schedule's) whose every line names its invocation, as the
 * HTTP stack's do: Lambda passes the context second.
 */
export const inInvocation =
  <A extends [event?: unknown, context?: InvocationContext, ...rest: unknown[]], R>(handler: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> =>
    withInvocation(args[1], () => handler(...args));

/**
 * What a log line may say of an error: its name and its cause's (a wrapper's, e.g. PublishFailed, and
 * what it wraps), never a message — an AWS message can quote a stored
 * item, ours can name a value. Spread into the line's attributes; no `causeName` when there is no cause.
 */
export function errorNames(error: unknown): { errorName: string; causeName?: string } {
  if (!(error instanceof Error)) return { errorName: typeof error };
  return error.cause instanceof Error ? { errorName: error.name, causeName: error.cause.name } : { errorName: error.name };
}
