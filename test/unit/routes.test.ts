import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isScope } from '../../shared/domain/scopes';
import { routeEntries } from '../../shared/routes';

describe('the routes table', () => {
  it("lists every row of shared/routes/, under the row's own name", async () => {
    const files = readdirSync('shared/routes').filter((file) => file !== 'route.ts');
    const rows = (await Promise.all(files.map((file) => import(`../../shared/routes/${file}`) as Promise<Record<string, unknown>>))).flatMap((module) =>
      Object.entries(module).filter(([, value]) => typeof value === 'object' && value !== null && 'handler' in value),
    );
    expect(rows.length).toBeGreaterThan(0);
    const tabled = new Map(routeEntries.map(([name, route]) => [name, route]));
    expect(rows.filter(([name, row]) => tabled.get(name as never) !== row).map(([name]) => name)).toEqual([]);
    expect(rows).toHaveLength(routeEntries.length);
  });

  it('names an existing handler file for every route', () => {
    const missing = routeEntries.filter(([, route]) => !existsSync(route.handler)).map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('lists each method and path once', () => {
    const signatures = routeEntries.map(([, route]) => `${route.method} ${route.path}`);
    expect(new Set(signatures).size).toBe(signatures.length);
  });

  it('uses only the scope names of the spec', () => {
    const unknown = routeEntries.flatMap(([, route]) => route.scopes.filter((scope) => !isScope(scope)));
    expect(unknown).toEqual([]);
  });

  it("needs a key on every route but health, the OpenAPI document, the docs page and its files, the unsubscribe link and the patient's link", () => {
    const open = routeEntries.filter(([, route]) => route.scopes.length === 0).map(([name]) => name);
    expect(open.sort()).toEqual([
      'cancelPatientAppointment',
      'getDocsAsset',
      'getDocsPage',
      'getOpenApiDocument',
      'getPatientPage',
      'getUnsubscribePage',
      'health',
      'reschedulePatientAppointment',
      'unsubscribe',
    ]);
  });

  it('marks the routes whose path carries a credential, and only those, so that no log records their path', () => {
    const secret = routeEntries.filter(([, route]) => route.secretPath).map(([name]) => name);
    expect(secret.sort()).toEqual(['cancelPatientAppointment', 'getPatientPage', 'getUnsubscribePage', 'reschedulePatientAppointment', 'unsubscribe']);
  });

  it('puts every keyed route under /api/v1', () => {
    const outside = routeEntries.filter(([, route]) => route.scopes.length > 0 && !route.path.startsWith('/api/v1/'));
    expect(outside).toEqual([]);
  });
});
