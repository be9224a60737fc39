import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypesText, documentText, handlerContracts, OPENAPI_FILE } from '../../infra/contract/openapi';
import { webhookSchemaName } from '../../infra/contract/webhooks';
import { EVENTS_DIR, PUBLISHED_EVENTS } from '../../infra/contract/event-schemas';
import type { HandlerContract } from '../../shared/http/handler';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../shared/webhooks/event-types';
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

describe("docs/openapi.json's webhooks", () => {
  const webhooks = (JSON.parse(committed) as { webhooks: Record<string, { post: { parameters: { name: string; in: string }[]; requestBody: unknown } }> })
    .webhooks;
  const schemas = (JSON.parse(committed) as { components: { schemas: Record<string, { properties: { type: unknown; data: unknown } }> } }).components.schemas;

  it('describe every event type a subscription may ask for, and the test send, and nothing else', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
  });

  it('each POST with the three Standard Webhooks headers and the body schema of its type', () => {
    for (const [type, { post }] of Object.entries(webhooks)) {
      expect(
        post.parameters.map((p) => `${p.in}:${p.name}`),
        type,
      ).toEqual(['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature']);
      expect(post.requestBody).toEqual({
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${webhookSchemaName(type)}` } } },
      });
      expect(schemas[webhookSchemaName(type)]!.properties.type).toEqual({ const: type });
    }
  });

  it("give each body's data the very schema docs/events publishes for its event", () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const event = PUBLISHED_EVENTS.find((published) => published.detailType === type)!;
      const {
        $schema: _draft,
        title: _title,
        description: _description,
        ...published
      } = JSON.parse(readFileSync(join(EVENTS_DIR, event.file), 'utf8')) as Record<string, unknown>;
      expect(schemas[webhookSchemaName(type)]!.properties.data, type).toEqual(published);
    }
  });
});
