/**
 * Access context of an API key (README "API keys"): the scopes it holds and the
 * profile groups and location groups whose resources it may see. Pure rules, no I/O.
 *
 * Profile → its profile group. Location → its location group. Appointment and home kit order → their
 * profile's group. Shipment → its location's group. Document → the profile that owns it.
 */
import { NotPermitted } from '../errors';
import type { Scope } from './scopes';

export interface AccessContext {
  readonly keyId: string;
  readonly scopes: ReadonlySet<Scope>;
  readonly profileGroups: ReadonlySet<string>;
  readonly locationGroups: ReadonlySet<string>;
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
