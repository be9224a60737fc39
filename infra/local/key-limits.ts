/**
 * The local gateway's key check (issue #31): what the API key authorizer and a usage plan do before a
 * function runs, with the same answers. A missing, unknown, revoked or expired key is answered 401 with
 * the route's own message (functions/auth/authorizer.ts); a key that may be used is counted against its
 * own limits, else the stage default the server was started with (null: unlimited), with the semantics of
 * shared/domain/rate-limits.ts, so partners and tests see the 429s, `Retry-After` and RateLimit headers.
 * A lookup that fails passes on: the route's own lookup answers (503), as the authorizer's failure does.
 */
import type { AccessContext } from '../../shared/auth/access';
import { type Admission, type KeyLimits, RateLimiter } from '../../shared/domain/rate-limits';
import { NotAuthenticated } from '../../shared/errors';

/** What the gateway answers instead of running the route: 401 for a bad key, 429 over the limits. */
export type GatewayCheck = { admitted: true } | { admitted: false; status: number; message: string; headers: Readonly<Record<string, string>> };

export class LocalKeyLimits {
  private readonly limiter = new RateLimiter();
  private verify?: (plaintext: string) => Promise<AccessContext>;

  constructor(private readonly stageDefault: KeyLimits | null) {}

  async admit(plaintext: string): Promise<GatewayCheck> {
    // Imported on first use: shared/auth reads the environment (shared/config.ts) when it loads. The
    // authorizer's check, which writes nothing (the route records the day's use).
    if (!this.verify) {
      const { toAccessContext, verifyApiKey } = await import('../../shared/auth/api-keys');
      this.verify = async (key) => toAccessContext(await verifyApiKey(key, Date.now(), { consistent: true }));
    }
    let access: AccessContext;
    try {
      access = await this.verify(plaintext);
    } catch (error) {
      if (error instanceof NotAuthenticated) return { admitted: false, status: 401, message: error.message, headers: {} };
      return { admitted: true };
    }
    const limits = access.limits ?? this.stageDefault;
    // The clock read after the lookup: the moment the request is counted.
    const admission: Admission = limits ? this.limiter.take(access.keyId, limits, Date.now()) : { admitted: true };
    return admission.admitted ? admission : { admitted: false, status: 429, message: admission.message, headers: admission.headers };
  }
}
