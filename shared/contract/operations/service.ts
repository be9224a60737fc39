/** What the public routes answer: health, the OpenAPI document, the docs page and its files. Joined with the other resources in shared/contract/operations.ts. */
import * as v from 'valibot';
import type { RouteName } from '../../routes';
import { type OperationDoc } from '../operation-doc';

export const serviceOperations = {
  health: {
    tag: 'Service',
    summary: 'Health check',
    description: 'Tells a load balancer or a developer that the API answers. No key needed.',
    responses: { 200: { description: 'The API answers.', schema: v.object({ status: v.string() }) } },
  },
  getOpenApiDocument: {
    tag: 'Service',
    summary: 'This OpenAPI document',
    description: 'The contract of the API, generated from the code that validates requests. No key needed.',
    responses: {
      200: { description: 'The OpenAPI 3.1 document, with this server as `servers`.', schema: v.record(v.string(), v.unknown()) },
    },
  },
  getDocsPage: {
    tag: 'Service',
    summary: 'Docs page',
    description: 'An HTML page rendering this document (Swagger UI, served by the API itself). No key needed.',
    responses: { 200: { description: 'The page.', content: { type: 'text/html', schema: { type: 'string' } } } },
  },
  getDocsAsset: {
    tag: 'Service',
    summary: 'A file of the docs page',
    description: "The docs page's script and style sheet, and the events' JSON Schemas its introduction links to. No key needed.",
    responses: {
      200: { description: 'The file, gzip-encoded when the client accepts it.', content: { type: '*/*', schema: { type: 'string' } } },
    },
    errors: { 404: 'no such file' },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
