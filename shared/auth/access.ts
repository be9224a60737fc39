/**
 * Access context of an API key (docs/api-keys.md "API keys"): the scopes it holds and the
 * profile groups and location groups whose resources it may see. Pure rules, no I/O.
 *
 * Profile → its profile group. Location → its location group. Appointment and home kit order → their
 * profile's group. Shipment → its location's group. Document → the profile that owns it.
 */
import type { KeyLimits } from '../domain/rate-limits';
import { NotPermitted } from '../errors';
import type { Scope } from '../domain/scopes';

export interface AccessContext {
  readonly keyId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly profileGroups: ReadonlySet<string>;
  readonly locationGroups: ReadonlySet<string>;
  /** The key's own request limits (issue #31), null: the stage's default; enforced at the gateway, not here. */
  readonly limits?: KeyLimits | null;
  /** A sandbox key (docs/sandbox.md): its request works on sandbox data (shared/sandbox.ts). */
  readonly sandbox?: boolean;
  /** This request's reads of a person's data, for the access log (docs/privacy.md "Privacy"); absent outside a request. */
  readonly audit?: ReadAudit;
}

/**
 * What a request showed of whom, said by the code that read it right after its access check passed
 * (`access.audit?.read(profileId, 'appointment <id> results')`). It only remembers: the HTTP edge records
 * the reads once the answer succeeded (shared/http/audit.ts), so a refused read leaves no entry.
 */
export interface ReadAudit {
  /** `resource` names what was shown (`profile`, `appointment <id>`, `document <id>`), never a field's value. */
  read(profileId: string, resource: string): void;
  /**
   * A lab report that matched no order (issue #51), shown with the patient the lab named: no profile is known,
   * so the entry goes to the unmatched result's own access log, by its id (docs/privacy.md "Results that match no order").
   */
  readUnmatched(unmatchedResultId: string, resource: string): void;
}

/** The spec's "or": holding any one of the listed scopes suffices. */
export function hasAnyScope(access: AccessContext, required: readonly Scope[]): boolean {
  return required.some((scope) => access.scopes.has(scope));
}

export function assertAnyScope(access: AccessContext, required: readonly Scope[]): void {
  if (!hasAnyScope(access, required)) {
    throw new NotPermitted(`This API key lacks the required scope (one of: ${required.join(', ')})`);
  }
}

/** For the few routes that need every one of their scopes (a person's export: profile and results). */
export function assertAllScopes(access: AccessContext, required: readonly Scope[]): void {
  const missing = required.filter((scope) => !access.scopes.has(scope));
  if (missing.length > 0) throw new NotPermitted(`This API key lacks the required scopes (all of: ${required.join(', ')}; missing: ${missing.join(', ')})`);
}

export function canSeeProfileGroup(access: AccessContext, profileGroup: string): boolean {
  return access.profileGroups.has(profileGroup);
}

export function canSeeLocationGroup(access: AccessContext, locationGroup: string): boolean {
  return access.locationGroups.has(locationGroup);
}

/** `resource` names what was refused ("profile", "profile group"), so the client knows which id to check. */
export function assertProfileGroupAccess(access: AccessContext, profileGroup: string, resource: string): void {
  if (!canSeeProfileGroup(access, profileGroup)) {
    throw new NotPermitted(`This API key has no access to this ${resource}`);
  }
}

export function assertLocationGroupAccess(access: AccessContext, locationGroup: string, resource: string): void {
  if (!canSeeLocationGroup(access, locationGroup)) {
    throw new NotPermitted(`This API key has no access to this ${resource}`);
  }
}

/** An appointment or a home kit order is seen through its profile's group. */
export function assertProfileResourceAccess(access: AccessContext, resource: { profile_group_slug: string }, name: string): void {
  assertProfileGroupAccess(access, resource.profile_group_slug, name);
}

/**
 * What only a live key may do: change what live and sandbox data share (a location's schedule), or what
 * only exists for sandbox data the other way round (docs/sandbox.md).
 */
export function assertLiveKey(access: AccessContext, action: string): void {
  if (access.sandbox) throw new NotPermitted(`A sandbox key cannot ${action} (docs/sandbox.md)`);
}

export function assertSandboxKey(access: AccessContext, action: string): void {
  if (!access.sandbox) throw new NotPermitted(`Only a sandbox key (lab_test_…) can ${action} (docs/sandbox.md)`);
}
