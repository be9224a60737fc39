/**
 * The local stack's dev key (infra/local/dev-api-key.ts), registered as `npm start` registers it: one dev
 * key at a time, so a key printed by an earlier start stops working, whichever kind replaces it. It never
 * expires: each start replaces it anyway.
 */
import { describe, expect, it } from 'vitest';
import { registerDevApiKey } from '../../infra/local/dev-api-key';
import { hashApiKey } from '../../shared/auth/api-keys';
import { findApiKeyByHash } from '../../shared/store/api-keys/lookup';

const revoked = async (plaintext: string) => (await findApiKeyByHash(hashApiKey(plaintext)))?.revoked;

describe('registerDevApiKey', () => {
  it('revokes the previously generated dev key when DEV_API_KEY is set', async () => {
    const generated = await registerDevApiKey(undefined);
    await registerDevApiKey('lab_dev_fixed_one');
    expect(await revoked(generated.plaintext)).toBe(true);
    expect(await revoked('lab_dev_fixed_one')).toBe(false);
  });

  it('revokes an earlier DEV_API_KEY when another value is registered', async () => {
    await registerDevApiKey('lab_dev_fixed_two');
    await registerDevApiKey('lab_dev_fixed_three');
    expect(await revoked('lab_dev_fixed_two')).toBe(true);
    expect(await revoked('lab_dev_fixed_three')).toBe(false);
  });

  it('registers a dev key that never expires', async () => {
    const { plaintext } = await registerDevApiKey(undefined);
    expect((await findApiKeyByHash(hashApiKey(plaintext)))?.key_expires_at).toBeNull();
  });
});
