import { describe, expect, it } from 'vitest';
import { type AccessContext, assertAnyScope, assertLocationGroupAccess, assertProfileGroupAccess, hasAnyScope } from '../../shared/auth/access';
import { NotPermitted } from '../../shared/errors';

const access: AccessContext = {
  keyId: 'key_test',
  scopes: new Set(['PROFILES_VIEW', 'LOCATIONS_VIEW']),
  profileGroups: new Set(['demo-clinic']),
  locationGroups: new Set(['berlin']),
};

describe('scopes', () => {
  it('grants a route when the key holds any one of its scopes', () => {
    expect(hasAnyScope(access, ['IMPERSONATE', 'PROFILES_VIEW'])).toBe(true);
  });

  it('refuses a route when the key holds none of its scopes', () => {
    expect(hasAnyScope(access, ['CREATE_USER', 'IMPERSONATE'])).toBe(false);
  });

  it('throws 403 naming the scopes that would have sufficed', () => {
    expect(() => assertAnyScope(access, ['CREATE_USER'])).toThrowError(new NotPermitted('This API key lacks the required scope (one of: CREATE_USER)'));
  });

  it('treats scope names case-sensitively, as the spec spells them', () => {
    expect(hasAnyScope(access, ['profiles_view' as never])).toBe(false);
  });
});

describe('access context', () => {
  it('lets a key see a profile of its own profile group', () => {
    expect(() => assertProfileGroupAccess(access, 'demo-clinic', 'profile')).not.toThrow();
  });

  it('refuses a profile of another profile group with 403', () => {
    expect(() => assertProfileGroupAccess(access, 'partner-clinic', 'profile')).toThrowError(NotPermitted);
  });

  it('lets a key see a location of its own location group', () => {
    expect(() => assertLocationGroupAccess(access, 'berlin', 'location')).not.toThrow();
  });

  it('refuses a location of another location group with a message naming the resource', () => {
    expect(() => assertLocationGroupAccess(access, 'helsinki', 'location')).toThrowError('This API key has no access to this location');
  });

  it('does not confuse a profile group with a location group of the same name', () => {
    expect(() => assertProfileGroupAccess(access, 'berlin', 'profile')).toThrowError(NotPermitted);
  });
});
