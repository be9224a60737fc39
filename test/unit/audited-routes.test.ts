/**
 * The list of routes that record reads in the access log (shared/http/audited-routes.ts): it holds every
 * route whose documented answer shows a person, and a route outside it cannot record a read silently. That
 * each listed route writes its entry is tested through the API (test/integration/access-log.test.ts).
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { type OperationDoc, operations } from '../../shared/contract/operations';
import { AUDITED_ROUTES, ReadCollector } from '../../shared/http/audited-routes';
import { type RouteName, routeEntries } from '../../shared/routes';

/** Fields only an answer about a person holds: every representation of a profile has names; a kit order its address. */
const PERSON_FIELDS = ['first_name', 'delivery_address'];

function showsPerson(route: RouteName): boolean {
  const { responses }: OperationDoc = operations[route];
  return Object.entries(responses).some(([status, response]) => {
    if (Number(status) >= 300 || !response.schema) return false;
    const schema = JSON.stringify(toJsonSchema(response.schema, { errorMode: 'ignore' }));
    return PERSON_FIELDS.some((field) => schema.includes(`"${field}":`));
  });
}

describe('the routes that record reads', () => {
  it('include every route whose answer holds a profile or a delivery address, but creating a profile and erasing one', () => {
    const showing = routeEntries.filter(([name]) => showsPerson(name)).map(([name]) => name);
    expect(showing).toContain('getProfile');
    // The first answers what its caller has just sent; the second a profile whose identifiers are all null.
    expect(showing.filter((name) => !AUDITED_ROUTES.has(name))).toEqual(['createProfile', 'eraseProfile']);
  });

  it("are all keyed routes, but the patient's page, whose use case records the view with the link as reader", () => {
    expect(routeEntries.filter(([name, route]) => AUDITED_ROUTES.has(name) && route.scopes.length === 0).map(([name]) => name)).toEqual(['getPatientPage']);
  });

  it('are the only ones whose read collector takes a read: another route fails loudly rather than show a person unrecorded', () => {
    expect(() => new ReadCollector('listLocations').read('c0a80101-0000-4000-8000-000000000001', 'profile')).toThrow(/listLocations .* AUDITED_ROUTES/);
  });

  it('collect each read of a request once', () => {
    const collector = new ReadCollector('getProfile');
    collector.read('c0a80101-0000-4000-8000-000000000001', 'profile');
    collector.read('c0a80101-0000-4000-8000-000000000001', 'profile');
    expect(collector.reads).toEqual([{ profileId: 'c0a80101-0000-4000-8000-000000000001', resource: 'profile' }]);
  });
});
