/**
 * The error stage of the Middy stack. Loaded with a dummy configuration: nothing here reaches DynamoDB.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.stubEnv('TABLE_NAME', 'unit-test-table');

const { errorStage } = await import('../../shared/http/middlewares');
const { logger } = await import('../../shared/logger');
const { Conflict } = await import('../../shared/errors');

type Stage = ReturnType<typeof errorStage>[number];

/** Middy runs onError handlers in reverse order of use: our mapping, then @middy/http-error-handler. */
async function runOnError(error: unknown) {
  const request = { event: {}, context: {}, response: undefined, error, internal: {} } as unknown as Parameters<NonNullable<Stage['onError']>>[0];
  for (const stage of errorStage().reverse()) await stage.onError?.(request);
  return request.response as { statusCode: number; body: string; headers: Record<string, string> };
}

beforeAll(() => {
  vi.spyOn(logger, 'error').mockImplementation(() => undefined);
});

describe('error responses', () => {
  it('answers a named error with its status and {error: message}', async () => {
    const response = await runOnError(new Conflict('appointment is cancelled'));
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({ error: 'appointment is cancelled' });
  });

  it('answers an unknown error with 500 and a generic message', async () => {
    const response = await runOnError(new Error('ValidationException: value "Erika Mustermann" is invalid'));
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'Internal server error' });
  });

  it('logs an unknown error without its message, which may quote patient data', async () => {
    await runOnError(new Error('value "Erika Mustermann" is invalid'));
    const logged = JSON.stringify(vi.mocked(logger.error).mock.calls.at(-1));
    expect(logged).toContain('Unhandled error');
    expect(logged).not.toContain('Erika');
  });

  it('answers an error with a status of its own that is not ours 500, without its message', async () => {
    const response = await runOnError(Object.assign(new Error('Unprocessable: Erika Mustermann'), { statusCode: 422 }));
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'Internal server error' });
  });

  it('answers JSON that no cache may keep', async () => {
    const response = await runOnError(new Conflict('x'));
    expect(response.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  });
});
