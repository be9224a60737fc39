/**
 * The credential provider every bundle that calls AWS carries (shared/lambda-credentials.ts, an esbuild alias
 * of the SDK's default chain): Lambda's environment, read once and kept, as the chain keeps what it found.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../shared/lambda-credentials';

const lambdaEnvironment = { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example-secret', AWS_SESSION_TOKEN: 'example-token' };

afterEach(() => vi.unstubAllEnvs());

function stubCredentials(values: Partial<typeof lambdaEnvironment>): void {
  for (const name of Object.keys(lambdaEnvironment)) vi.stubEnv(name, values[name as keyof typeof lambdaEnvironment]);
}

describe("the bundles' credential provider", () => {
  it('answers the access key, secret and session token Lambda puts in the environment', async () => {
    stubCredentials(lambdaEnvironment);
    expect(await defaultProvider()()).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'example-secret', sessionToken: 'example-token' });
  });

  it('reads the environment once and keeps what it found', async () => {
    stubCredentials(lambdaEnvironment);
    const provider = defaultProvider();
    const first = await provider();
    stubCredentials({ ...lambdaEnvironment, AWS_ACCESS_KEY_ID: 'ASIACHANGED' });
    expect(await provider()).toBe(first);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    stubCredentials({});
    const provider = defaultProvider();
    await expect(provider()).rejects.toThrow();
    stubCredentials(lambdaEnvironment);
    expect(await provider()).toMatchObject({ accessKeyId: 'ASIAEXAMPLE' });
  });
});
