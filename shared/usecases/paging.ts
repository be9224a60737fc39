/**
 * The page a key asks for of a paged list, bound to that key (shared/store/pages.ts signs and checks its
 * cursors). Only the handlers of paged lists import this module, so a missing or short CURSOR_SECRET fails
 * their cold start, and no other function needs the secret.
 */
import { createSecretKey } from 'node:crypto';
import type { AccessContext } from '../auth/access';
import { config, requireSetting } from '../config';
import type { PageRequest } from '../store/pages';

// A KeyObject: the secret never shows in a log or an error, whatever prints the binding.
const secret = createSecretKey(requireSetting(config.cursorSecret, 'CURSOR_SECRET'), 'utf8');

/** `query`: the validated `limit` and `cursor` of the request (shared/schemas/pagination.ts). */
export function pageFor(query: { limit: number; cursor?: string }, access: AccessContext): PageRequest {
  return { ...query, binding: { reader: access.keyId, secret } };
}
