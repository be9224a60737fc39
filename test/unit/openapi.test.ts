import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypesText, documentText, handlerContracts, OPENAPI_FILE } from '../../infra/contract/openapi';
import type { HandlerContract } from '../../shared/http/handler';
import { type RouteName, routes } from '../../shared/routes';

const committed = readFileSync(OPENAPI_FILE, 'utf8');
const document = JSON.parse(committed) as { paths: Record<string, Record<string, { operationId: string }>> };

describe('docs/openapi.json', () => {
  let generated: string;
  beforeAll(async () => {
    generated = await documentText();
  }, 30_000);

  it('is what npm run openapi generates from the code (run it after changing a route or schema)', () => {
    expect(committed).toBe(generated);
  });

  it('docs/lab-api.d.ts holds the types generated from it (run npm run openapi)', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(await clientTypesText(committed));
  }, 30_000);

  it('gives every schema in it a shape: no empty schema that would accept anything', () => {
    const empty: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (typeof value !== 'object' || value === null) return;
      if (at.endsWith('/schema') || /\/properties\/[^/]+$/.test(at) || at.endsWith('/items')) {
        if (Object.keys(value).length === 0) empty.push(at);
      }
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${key}`);
    };
    walk(JSON.parse(committed), '#');
    expect(empty).toEqual([]);
  });

  it('documents every route of the routes table, and nothing else', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path}`),
    );
    const table = Object.entries(routes).map(([name, route]) => `${name} ${route.method} ${route.path}`);
    expect(documented.sort()).toEqual(table.sort());
  });
});

describe('handlers and the routes table', () => {
  let contracts: Map<RouteName, HandlerContract>;
  beforeAll(async () => {
    contracts = await handlerContracts();
  }, 30_000);

  it("declares in each handler the route of the table's row that points at it", () => {
    const mismatched = [...contracts].filter(([name, contract]) => contract.route !== name).map(([name, c]) => `${name} → ${c.route}`);
    expect(mismatched).toEqual([]);
  });
});
