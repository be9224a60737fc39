/**
 * What the deployed stack promises, read from the synthesized template: the API is the routes table,
 * the data is kept and private, each function may do what its route needs and no more. The stack is
 * synthesized once, without bundling (fast); one test bundles a real handler with the same settings.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction, LAMBDA_BUNDLE, REPO_ROOT } from '../../infra/api-function';
import { LabApiStack } from '../../infra/lab-api-stack';
import { type RouteName, routeEntries, routes } from '../../shared/routes';
import { tableDefinition, TTL_ATTRIBUTE } from '../../shared/store/table';

interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
}
interface Statement {
  Effect: string;
  Action: string | string[];
}
interface Integration {
  Type: string;
  Uri?: unknown;
  IntegrationResponses?: { StatusCode: string }[];
}
type Ref = { Ref?: string };

let template: Template;
let resources: Record<string, CfnResource>;
/** Logical ids of each route's function and role, found through the construct tree, not guessed from names. */
const functionIds = new Map<RouteName, { fn: string; role: string }>();

beforeAll(async () => {
  // cdk.json's context (the feature flags), so that the template tested is the one `cdk synth` makes.
  const cdkJson = JSON.parse(await readFile(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: object };
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new LabApiStack(app, 'LabApi-prod', { stage: 'prod' });
  template = Template.fromStack(stack);
  resources = (template.toJSON() as { Resources: Record<string, CfnResource> }).Resources;
  const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  for (const child of stack.node.children) {
    if (child instanceof ApiFunction) {
      functionIds.set(child.routeName, { fn: logicalId(child.function), role: logicalId(child.function.role!) });
    }
  }
});

function ofType(type: string): [string, CfnResource][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

function onlyOfType(type: string): [string, CfnResource] {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
}

function idsOf(routeName: RouteName) {
  const ids = functionIds.get(routeName);
  if (!ids) throw new Error(`no function for route ${routeName}`);
  return ids;
}

/** Every API Gateway method with its path, rebuilt by walking each resource's PathPart and ParentId. */
function apiMethods() {
  const parentOf = (ref: unknown) => (ref as Ref).Ref; // undefined: the API's root resource
  const pathOf = (resourceId: string | undefined): string => {
    if (resourceId === undefined) return '';
    const resource = resources[resourceId]!.Properties;
    return `${pathOf(parentOf(resource.ParentId))}/${String(resource.PathPart)}`;
  };
  return ofType('AWS::ApiGateway::Method').map(([, method]) => ({
    method: String(method.Properties.HttpMethod),
    path: pathOf(parentOf(method.Properties.ResourceId)) || '/',
    integration: method.Properties.Integration as Integration,
  }));
}

/** The IAM policies attached to a role. */
function policiesOf(roleId: string) {
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as Ref[]).some((role) => role.Ref === roleId))
    .map(([, policy]) => policy.Properties.PolicyDocument as { Statement: Statement[] });
}

function allowedActions(roleId: string): string[] {
  return policiesOf(roleId)
    .flatMap((document) => document.Statement)
    .filter((statement) => statement.Effect === 'Allow')
    .flatMap((statement) => [statement.Action].flat());
}

/** Attribute definitions or indexes in name order: CloudFormation does not care about their order. */
function sortedByName<T extends { AttributeName?: string; IndexName?: string }>(items: readonly T[] | undefined): T[] {
  const nameOf = (item: T) => String(item.AttributeName ?? item.IndexName);
  return [...(items ?? [])].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

describe('the LabApi stack', () => {
  it('deploys one Node.js 24 arm64 function per route of the routes table, plus the outbox relay', () => {
    expect([...functionIds.keys()].sort()).toEqual(routeEntries.map(([name]) => name).sort());
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(routeEntries.length + 1);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
    }
  });

  it('gives every function the names of the table, bucket and bus it reads at cold start', () => {
    const [tableId] = onlyOfType('AWS::DynamoDB::Table');
    const [bucketId] = onlyOfType('AWS::S3::Bucket');
    const [busId] = onlyOfType('AWS::Events::EventBus');
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect((fn.Properties.Environment as { Variables: unknown }).Variables).toEqual({
        TABLE_NAME: { Ref: tableId },
        DOCUMENTS_BUCKET: { Ref: bucketId },
        EVENT_BUS_NAME: { Ref: busId },
        POWERTOOLS_SERVICE_NAME: 'lab-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });

  it('exposes exactly the methods of the routes table, each invoking its own route function', () => {
    const methods = apiMethods().filter((m) => m.method !== 'ANY');
    const expected = routeEntries.map(([, route]) => `${route.method} ${route.path}`);
    expect(methods.map((m) => `${m.method} ${m.path}`).sort()).toEqual(expected.sort());
    for (const [name, route] of routeEntries) {
      const method = methods.find((m) => m.method === route.method && m.path === route.path)!;
      expect(method.integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(method.integration.Uri)).toContain(`"${idsOf(name).fn}"`);
    }
  });

  it('answers 405 from API Gateway on a known path with a method the routes table does not list', () => {
    const anyMethods = apiMethods().filter((m) => m.method === 'ANY');
    const routePaths = new Set(routeEntries.map(([, route]) => route.path));
    expect(anyMethods.map((m) => m.path).sort()).toEqual([...routePaths].sort());
    for (const { integration } of anyMethods) {
      expect(integration.Type).toBe('MOCK');
      expect(integration.IntegrationResponses?.map((r) => r.StatusCode)).toEqual(['405']);
    }
  });

  it('answers an unknown path 404 with an {error} body, and its own other errors with an {error} body too', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': '{"error":"Not found"}' },
    });
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('^\\{"error":') },
      });
    }
  });

  it('declares the keys and indexes the local stack creates, on demand, with point-in-time recovery and TTL', () => {
    const local = tableDefinition('any');
    const table = onlyOfType('AWS::DynamoDB::Table')[1].Properties;
    expect(table.KeySchema).toEqual(local.KeySchema);
    expect(sortedByName(table.AttributeDefinitions as typeof local.AttributeDefinitions)).toEqual(
      sortedByName(local.AttributeDefinitions),
    );
    expect(sortedByName(table.GlobalSecondaryIndexes as typeof local.GlobalSecondaryIndexes)).toEqual(
      sortedByName(local.GlobalSecondaryIndexes),
    );
    expect(table).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      DeletionProtectionEnabled: true, // the stack under test is prod
    });
  });

  it('keeps the table and the documents bucket when the stack is deleted', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket']) {
      template.hasResource(type, { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    }
  });

  it('keeps the documents bucket private, encrypted, versioned and reachable over TLS only', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      VersioningConfiguration: { Status: 'Enabled' },
    });
    const denyPlainHttp = {
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    };
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike(denyPlainHttp)]) },
    });
  });

  it('lets GET routes read the table but never write it, and other routes write it and publish events', () => {
    for (const [name, route] of routeEntries) {
      const actions = allowedActions(idsOf(name).role);
      expect(actions, name).toContain('dynamodb:GetItem');
      if (route.method === 'GET') {
        expect(actions, name).not.toContain('dynamodb:PutItem');
        expect(actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action)), name).toEqual([]);
        expect(actions, name).not.toContain('events:PutEvents');
      } else {
        expect(actions, name).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'events:PutEvents']));
      }
    }
  });

  it('lets only the document route read the bucket, and only the files under documents/', () => {
    for (const [name] of routeEntries) {
      const touchesBucket = allowedActions(idsOf(name).role).some((action) => action.startsWith('s3:'));
      expect(touchesBucket, name).toBe(name === 'getDocument');
    }
    const policies = JSON.stringify(policiesOf(idsOf('getDocument').role));
    expect(policies).toContain('/documents/*');
    expect(policies).not.toMatch(/s3:(Put|Delete)/);
  });

  it('relays the outbox every minute, each run ending within its minute', () => {
    const rule = onlyOfType('AWS::Events::Rule')[1].Properties;
    expect(rule.ScheduleExpression).toBe('rate(1 minute)');
    const [target] = rule.Targets as { Arn: { 'Fn::GetAtt': [string, string] } }[];
    const relay = resources[target!.Arn['Fn::GetAtt'][0]]!.Properties;
    expect(String(relay.Description)).toMatch(/outbox/i);
    expect(relay.Timeout).toBeLessThan(60);
  });

  it('outputs the API URL and the names of the table, bucket and bus', () => {
    const outputs = (template.toJSON() as { Outputs: Record<string, unknown> }).Outputs;
    expect(Object.keys(outputs).sort()).toEqual(['ApiUrl', 'BucketName', 'EventBusName', 'TableName']);
  });
});

describe('a Lambda bundle', () => {
  it('is an ES module under 1 MB that loads on Node.js and imports only the AWS SDK and Node built-ins', async () => {
    // Inside node_modules so that the runtime's @aws-sdk/* resolve when the bundle is loaded below.
    await mkdir(join(REPO_ROOT, 'node_modules/.cache'), { recursive: true });
    const outdir = await mkdtemp(join(REPO_ROOT, 'node_modules/.cache/lambda-bundle-'));
    try {
      const outfile = join(outdir, 'index.mjs');
      const result = await build({
        entryPoints: [join(REPO_ROOT, routes.getProfile.handler)],
        outfile,
        bundle: true,
        platform: 'node',
        format: LAMBDA_BUNDLE.format,
        target: LAMBDA_BUNDLE.target,
        minify: LAMBDA_BUNDLE.minify,
        sourcemap: LAMBDA_BUNDLE.sourceMap,
        sourcesContent: LAMBDA_BUNDLE.sourcesContent,
        external: [...LAMBDA_BUNDLE.externalModules],
        mainFields: [...LAMBDA_BUNDLE.mainFields],
        banner: { js: LAMBDA_BUNDLE.banner },
        metafile: true,
        logLevel: 'silent',
      });
      const { size } = await stat(outfile);
      console.info(`getProfile bundle: ${size} bytes (${(size / 1024).toFixed(1)} KiB)`);
      expect(size).toBeLessThan(1024 * 1024);

      const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('index.mjs'))!;
      expect(output.exports).toContain('handler');
      const externals = output.imports.filter((i) => i.external).map((i) => i.path);
      expect(externals.filter((path) => !path.startsWith('@aws-sdk/') && !isBuiltin(path))).toEqual([]);

      // Loaded as the runtime loads it: catches CommonJS left in the ES module, or a module left out.
      const url = JSON.stringify(pathToFileURL(outfile).href);
      const load = `const m = await import(${url}); if (typeof m.handler !== 'function') process.exit(3);`;
      execFileSync(process.execPath, ['--input-type=module', '-e', load], {
        env: { PATH: process.env.PATH, TABLE_NAME: 'lab-table', AWS_REGION: 'eu-central-1' },
        stdio: 'pipe',
      });
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
