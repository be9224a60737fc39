/**
 * The per-key request limits at the local gateway (issue #31): what an API Gateway usage plan does before
 * a function runs, with the same semantics (shared/domain/rate-limits.ts), so partners and tests see the
 * 429s, `Retry-After` and RateLimit headers they will see deployed. A key that authenticates is counted
 * against its own limits, else the stage default the server was started with (null: unlimited). A request
 * with a bad key passes on: the route answers its 401, as it does deployed until the authorizer of #31
 * answers it at the gateway.
 */
import type { AccessContext } from '../../shared/auth/access';
import { type Admission, type KeyLimits, RateLimiter } from '../../shared/domain/rate-limits';

export class LocalKeyLimits {
  private readonly limiter = new RateLimiter();
  private authenticate?: (plaintext: string) => Promise<AccessContext>;

  constructor(private readonly stageDefault: KeyLimits | null) {}

  async admit(plaintext: string): Promise<Admission> {
    // Imported on first use: shared/auth reads the environment (shared/config.ts) when it loads.
    this.authenticate ??= (await import('../../shared/auth/api-keys')).authenticate;
    let access: AccessContext;
    try {
      access = await this.authenticate(plaintext);
    } catch {
      return { admitted: true };
    }
    const limits = access.limits ?? this.stageDefault;
    // The clock read after the lookup: the moment the request is counted.
    return limits ? this.limiter.take(access.keyId, limits, Date.now()) : { admitted: true };
  }
}
