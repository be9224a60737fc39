import { describe, expect, it } from 'vitest';
import { assertDocumented } from '../support/contract';

const json = (extra: Record<string, string> = {}) => new Headers({ 'content-type': 'application/json', ...extra });
const location = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  name: 'Mitte',
  company_name: null,
  address_line_1: null,
  address_line_2: null,
  city: null,
  state: null,
  postal_code: null,
  country_name: null,
  country_code: null,
  timezone: null,
  contact_phone: null,
  email: null,
  website: null,
  google_maps_url: null,
  image_url: null,
  open_hours: null,
  slot_minutes: 15,
  capacity_per_slot: 1,
  closures: [],
};
const path = `/api/v1/locations/${location.id}`;

describe('the contract check of test responses', () => {
  it('accepts a response that matches its documented schema', () => {
    expect(() => assertDocumented('GET', path, { status: 200, headers: json(), body: location })).not.toThrow();
  });

  it('refuses a status the operation does not document', () => {
    expect(() => assertDocumented('GET', path, { status: 409, headers: json(), body: { error: 'x' } })).toThrow(
      'getLocation (GET /api/v1/locations/{id}) answered 409, which docs/openapi.json does not document',
    );
  });

  it('refuses a field the contract does not show', () => {
    expect(() => assertDocumented('GET', path, { status: 200, headers: json(), body: { ...location, secret: 1 } })).toThrow(
      'must NOT have additional properties',
    );
  });

  it('refuses a field of the wrong type', () => {
    expect(() => assertDocumented('GET', path, { status: 200, headers: json(), body: { ...location, name: 7 } })).toThrow('body/name must be string');
  });

  it('refuses an error body that is not {error}', () => {
    expect(() => assertDocumented('GET', path, { status: 404, headers: json(), body: { message: 'gone' } })).toThrow("must have required property 'error'");
  });

  it('refuses another content type than the documented one', () => {
    expect(() => assertDocumented('GET', path, { status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '' })).toThrow(
      'with Content-Type text/html',
    );
  });

  it('refuses a redirect without its documented Location header', () => {
    expect(() => assertDocumented('GET', `/api/v1/documents/${location.id}`, { status: 303, headers: json(), body: { url: 'https://s3.example/x' } })).toThrow(
      'without its documented Location header',
    );
  });

  it('matches a literal path before a template: GET /appointments/pickup is a wrong method, not getAppointment', () => {
    const wrongMethod = { status: 405, headers: json({ allow: 'POST' }), body: { error: 'Method GET not allowed; allowed: POST' } };
    expect(() => assertDocumented('GET', '/api/v1/appointments/pickup', wrongMethod)).not.toThrow();
  });

  it('refuses a gateway answer for an unknown path that is not an {error}', () => {
    expect(() => assertDocumented('GET', '/api/v1/nothing', { status: 404, headers: json(), body: 'Not found' })).toThrow(
      'reaches no operation, yet answered 404',
    );
  });
});
