/**
 * The log lines of shared/logger.ts as its environment shapes them, read once when the module loads: each
 * test loads it afresh with its own variables. test/integration/phi-logs.test.ts reads the lines of a whole
 * scenario for personal data; test/e2e/local-stack.test.ts, those of concurrent requests to the running stack.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Logger from '../../shared/logger';
import { captureLogs } from '../support/log-capture';

type Line = Record<string, unknown>;

async function linesWritten(environment: Record<string, string | undefined>, write: (module: typeof Logger) => Promise<void> | void): Promise<Line[]> {
  vi.resetModules();
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  const module = await import('../../shared/logger');
  const logs = captureLogs();
  try {
    await write(module);
  } finally {
    logs.stop();
  }
  return logs.lines().map((line) => JSON.parse(line) as Line);
}

/** A Lambda context as the runtime passes it, for one function and request. */
const contextOf = (functionName: string, awsRequestId: string) => ({
  functionName,
  awsRequestId,
  memoryLimitInMB: '256',
  invokedFunctionArn: `arn:aws:lambda:eu-central-1:123456789012:function:${functionName}`,
});

afterEach(() => vi.unstubAllEnvs());

describe('a log line', () => {
  it('holds the level, the message, a timestamp, the service and the attributes', async () => {
    const [line, ...more] = await linesWritten({ POWERTOOLS_SERVICE_NAME: 'lab-api-test' }, ({ logger }) => logger.info('request', { status: 200 }));
    expect(more).toEqual([]);
    expect(line).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 'lab-api-test',
      status: 200,
    });
  });

  it('is the JSON of its head, the invocation and the attributes, in that order, undefined members left out', async () => {
    vi.resetModules();
    const { logger, withInvocation } = await import('../../shared/logger');
    const logs = captureLogs();
    try {
      withInvocation(contextOf('lab-api-getProfile', 'request-1'), () =>
        logger.info('a "quoted" message\n', { status: 200, nested: { list: [1, 'two'] }, absent: undefined, text: 'ü \u2028 \\' }),
      );
    } finally {
      logs.stop();
    }
    const [text] = logs.lines();
    const line = JSON.parse(text!) as Line;
    expect(text).toBe(JSON.stringify(line));
    expect(Object.keys(line)).toEqual([
      'level',
      'message',
      'timestamp',
      'service',
      'cold_start',
      'function_name',
      'function_memory_size',
      'function_arn',
      'function_request_id',
      'status',
      'nested',
      'text',
    ]);
    expect(line).toMatchObject({ message: 'a "quoted" message\n', nested: { list: [1, 'two'] }, text: 'ü \u2028 \\' });
  });

  it('takes an attribute named as a field of its head in place of that field, written once', async () => {
    vi.resetModules();
    const { logger } = await import('../../shared/logger');
    const logs = captureLogs();
    try {
      logger.info('request', { service: 'another', status: 200 });
    } finally {
      logs.stop();
    }
    const [text] = logs.lines();
    expect(text!.match(/"service":/g)).toHaveLength(1);
    expect(JSON.parse(text!)).toMatchObject({ service: 'another', status: 200 });
  });

  it('names the function and request of the invocation it was written in, and its cold start only on the first', async () => {
    const lines = await linesWritten({}, async ({ logger, withInvocation }) => {
      await withInvocation(contextOf('lab-api-getProfile', 'request-1'), async () => logger.info('first'));
      await withInvocation(contextOf('lab-api-getProfile', 'request-2'), async () => logger.info('second'));
    });
    expect(lines.map(({ message, function_request_id, cold_start }) => ({ message, function_request_id, cold_start }))).toEqual([
      { message: 'first', function_request_id: 'request-1', cold_start: true },
      { message: 'second', function_request_id: 'request-2', cold_start: false },
    ]);
    expect(lines[0]).toMatchObject({
      function_name: 'lab-api-getProfile',
      function_memory_size: '256',
      function_arn: 'arn:aws:lambda:eu-central-1:123456789012:function:lab-api-getProfile',
    });
  });

  it('names its own invocation when invocations run at the same time', async () => {
    const lines = await linesWritten({}, async ({ logger, withInvocation }) => {
      const invoke = (name: string, wait: number) =>
        withInvocation(contextOf(name, `${name}-request`), async () => {
          await sleep(wait);
          logger.info(name);
        });
      await Promise.all([invoke('lab-api-a', 20), invoke('lab-api-b', 1), invoke('lab-api-c', 10)]);
    });
    expect(lines.filter((line) => line.function_name !== line.message || line.function_request_id !== `${String(line.message)}-request`)).toEqual([]);
    expect(lines).toHaveLength(3);
  });

  it('names no function outside an invocation', async () => {
    const [line] = await linesWritten({}, ({ logger }) => logger.info('outbox relayed', { published: 1 }));
    expect(Object.keys(line!).filter((key) => key.startsWith('function_'))).toEqual([]);
  });

  it('carries the X-Ray trace id of the invocation when Lambda sets one', async () => {
    const [line] = await linesWritten(
      { _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1' },
      ({ logger, withInvocation }) => withInvocation(contextOf('lab-api-getProfile', 'request-1'), () => logger.info('request')),
    );
    expect(line!.xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });

  it('carries the X-Ray trace id outside an invocation too, as every line did', async () => {
    const [line] = await linesWritten({ _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1' }, ({ logger }) =>
      logger.info('outbox relayed'),
    );
    expect(line!.xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });

  it('names the invocation of a handler outside HTTP, and leaves out what its context lacks', async () => {
    const lines = await linesWritten({}, async ({ logger, inInvocation }) => {
      const handler = inInvocation(async (_event: unknown, _context?: { awsRequestId: string }) => logger.info('webhook attempt'));
      await handler({}, { awsRequestId: 'sqs-request-1' });
    });
    expect(lines[0]).toMatchObject({ message: 'webhook attempt', function_request_id: 'sqs-request-1' });
    expect(lines[0]).not.toHaveProperty('function_memory_size');
  });

  it('is written without its attributes, and without throwing, when they cannot be serialized', async () => {
    const [line] = await linesWritten({}, ({ logger }) => logger.warn('odd', { count: 1n }));
    expect(line).toMatchObject({ level: 'WARN', message: 'odd', log_error: 'attributes not serializable: TypeError' });
    expect(line).not.toHaveProperty('count');
  });
});

describe('the level', () => {
  it('leaves out lines below POWERTOOLS_LOG_LEVEL', async () => {
    const lines = await linesWritten({ POWERTOOLS_LOG_LEVEL: 'warn' }, ({ logger }) => {
      logger.debug('debug');
      logger.info('info');
      logger.warn('warn');
      logger.error('error');
    });
    expect(lines.map((line) => line.level)).toEqual(['WARN', 'ERROR']);
  });

  it("is Lambda's AWS_LAMBDA_LOG_LEVEL when POWERTOOLS_LOG_LEVEL is unset", async () => {
    const lines = await linesWritten({ POWERTOOLS_LOG_LEVEL: undefined, AWS_LAMBDA_LOG_LEVEL: 'ERROR' }, ({ logger }) => {
      logger.warn('warn');
      logger.error('error');
    });
    expect(lines.map((line) => line.level)).toEqual(['ERROR']);
  });

  it("is the stricter of POWERTOOLS_LOG_LEVEL and Lambda's AWS_LAMBDA_LOG_LEVEL, whose lines below it Lambda drops", async () => {
    const lines = await linesWritten({ POWERTOOLS_LOG_LEVEL: 'INFO', AWS_LAMBDA_LOG_LEVEL: 'WARN' }, ({ logger }) => {
      logger.info('info');
      logger.warn('warn');
      expect(logger.writes('INFO')).toBe(false);
    });
    expect(lines.map((line) => line.level)).toEqual(['WARN']);
  });

  it("reads Lambda's FATAL as CRITICAL", async () => {
    const lines = await linesWritten({ POWERTOOLS_LOG_LEVEL: undefined, AWS_LAMBDA_LOG_LEVEL: 'FATAL' }, ({ logger }) => {
      logger.error('error');
      logger.critical('critical');
    });
    expect(lines.map((line) => line.level)).toEqual(['CRITICAL']);
  });

  it('is INFO when the variable names no level, so a typo never silences the log', async () => {
    const lines = await linesWritten({ POWERTOOLS_LOG_LEVEL: 'INFORMATION', AWS_LAMBDA_LOG_LEVEL: undefined }, ({ logger }) => {
      logger.debug('debug');
      logger.info('info');
    });
    expect(lines.map((line) => line.level)).toEqual(['INFO']);
  });

  it('writes nothing at SILENT', async () => {
    expect(await linesWritten({ POWERTOOLS_LOG_LEVEL: 'SILENT' }, ({ logger }) => logger.critical('critical'))).toEqual([]);
  });
});

describe('the stream', () => {
  it('is stderr for warnings and errors and stdout for the rest, as Lambda reads both', async () => {
    vi.resetModules();
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    const { logger } = await import('../../shared/logger');
    const written = { stdout: [] as string[], stderr: [] as string[] };
    const spies = (['stdout', 'stderr'] as const).map((name) =>
      vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => (written[name].push(String(chunk)), true)),
    );
    try {
      logger.info('info');
      logger.warn('warn');
      logger.error('error');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const messages = (lines: string[]) => lines.map((line) => (JSON.parse(line) as Line).message);
    expect({ stdout: messages(written.stdout), stderr: messages(written.stderr) }).toEqual({ stdout: ['info'], stderr: ['warn', 'error'] });
  });
});
