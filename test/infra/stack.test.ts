/**
 * What the deployed prod stack promises, read from the synthesized template: the API is the routes table,
 * the data is kept, private and encrypted, each function may do what its class needs and no more, events
 * that fail land in dead-letter queues, and someone is told. The stack is synthesized once, without
 * bundling (fast); one test bundles real handlers with the same settings.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction, copyPackageFiles, POWERTOOLS_ENVIRONMENT, REPO_ROOT, servesPages } from '../../infra/api-function';
import { buildBundle } from '../../infra/bench/bundle-build';
import { ACCESS_LOG_FIELDS, API_KEY_HEADER, KEY_AUTHORIZER_CACHE_SECONDS, type LabApiStack, MISSING_KEY_MESSAGE } from '../../infra/lab-api-stack';
import {
  CRITICAL_UNACKNOWLEDGED_METRIC,
  METRICS_PER_ALARM,
  OUTBOX_RELAYED_LOG,
  OUTBOX_RELAYED_METRIC,
  UNMATCHED_WAITING_METRIC,
  WEBHOOKS_DISABLED_METRIC,
} from '../../infra/monitoring';
import {
  FUNCTION_SIZES,
  type FunctionClass,
  INVOKED_BY,
  LINK_REQUEST_COUNTERS,
  CONSENT_WITHDRAWERS,
  PACKAGE_FILES,
  REPORT_RENDERERS,
  routeClassOf,
  SERVICE_LEVEL_CLASSES,
  UNMATCHED_RESULT_FILERS,
  WEBHOOK_SENDERS,
} from '../../infra/route-classes';
import { STAGE_FILES } from '../../infra/settings';
import { CRITICAL_UNACKNOWLEDGED_LOG, UNMATCHED_WAITING_LOG } from '../../shared/domain/results';
import { WEBHOOK_DISABLED_LOG } from '../../shared/domain/webhook';
import { EVENT_SOURCE, SANDBOX_EVENT_SOURCE } from '../../shared/events/event-source';
import { AUDITED_ROUTES } from '../../shared/http/audited-routes';
import { type RouteName, routeEntries, routes } from '../../shared/routes';
import { tableDefinition, TTL_ATTRIBUTE } from '../../shared/store/table';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/event-types';
import { labApiStack, type Ref, type Statement, str, Synthesized, testApp } from './synth';

interface Integration {
  Type: string;
  Uri?: unknown;
  ContentHandling?: string;
  IntegrationResponses?: { StatusCode: string; ContentHandling?: string }[];
}

let prod: Synthesized;

beforeAll(() => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
});

/** The function of a route (ApiFunction) or of the relay, ingest, the webhook dispatcher or retries (by class). */
function functionOf(route: RouteName | FunctionClass) {
  const found = prod.functions.filter(({ construct }) =>
    construct instanceof ApiFunction ? construct.routeName === route : construct.functionClass === route,
  );
  if (found.length !== 1) throw new Error(`expected one function for ${route}, found ${found.length}`);
  return found[0]!;
}

const fnProps = (route: RouteName | FunctionClass) => prod.resources[functionOf(route).fn]!.Properties;
const routesOfClass = (cls: FunctionClass) => routeEntries.filter(([name, route]) => routeClassOf(name, route) === cls);
const apiMethods = () => prod.apiMethods().map((m) => ({ ...m, integration: m.properties.Integration as Integration }));

/** Attribute definitions or indexes in name order: CloudFormation does not care about their order. */
function sortedByName<T extends { AttributeName?: string; IndexName?: string }>(items: readonly T[] | undefined): T[] {
  const nameOf = (item: T) => String(item.AttributeName ?? item.IndexName);
  return [...(items ?? [])].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

const TABLE_READS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
const TABLE_WRITES = [...TABLE_READS, 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort();
/** What delivering webhooks needs: reads, a new delivery, updates of claims, attempts and streaks. */
const WEBHOOK_DELIVERY_ACTIONS = [...TABLE_READS, 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort();

/** The scheduled rule that invokes `fn` (a logical id). */
const scheduleOf = (fn: string) =>
  prod.ofType('AWS::Events::Rule').find(([, rule]) => rule.Properties.ScheduleExpression && str(rule.Properties.Targets).includes(`"${fn}"`))?.[1].Properties;

/** The webhook queue: the target of the rule of the webhook event types. */
function webhookQueue() {
  const [ruleId, rule] = prod.ofType('AWS::Events::Rule').find(([, r]) => str(r.Properties.EventPattern).includes(WEBHOOK_EVENT_TYPES[0]))!;
  const [target] = rule.Properties.Targets as { Arn: { 'Fn::GetAtt': [string] }; DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string] } } }[];
  return { ruleId, rule, target: target!, queueId: target!.Arn['Fn::GetAtt'][0], deadLetterQueueId: target!.DeadLetterConfig.Arn['Fn::GetAtt'][0] };
}

describe('the LabApi stack (prod): functions', () => {
  it('deploys one Node.js 24 arm64 function per route of the routes table, plus the outbox relay, results-ingest, the two webhook functions, the critical results check, the three patient email functions and the API key authorizer', () => {
    const routeNames = prod.functions.flatMap(({ construct }) => (construct instanceof ApiFunction ? [construct.routeName] : []));
    expect(routeNames.sort()).toEqual(routeEntries.map(([name]) => name).sort());
    const functions = prod.ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(routeEntries.length + 9);
    expect(prod.functions).toHaveLength(functions.length);
    expect(String(fnProps('relay').Description)).toMatch(/outbox/i);
    expect(String(fnProps('ingest').Description)).toMatch(/results-ingest/);
    expect(String(fnProps('webhook-dispatch').Description)).toMatch(/webhook dispatch/i);
    expect(String(fnProps('webhook-retries').Description)).toMatch(/webhook retries/i);
    expect(String(fnProps('critical-check').Description)).toMatch(/critical results check/i);
    expect(String(fnProps('authorizer').Description)).toMatch(/API key authorizer/);
    expect(String(fnProps('patient-messages').Description)).toMatch(/patient messages/i);
    expect(String(fnProps('message-reminders').Description)).toMatch(/message reminders/i);
    expect(String(fnProps('email-feedback').Description)).toMatch(/email feedback/i);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
    }
  });

  it('configures every function through its environment: table, bucket, bus, Powertools and its metrics namespace, source maps (route functions their route class, the paged lists their cursor key, the reading routes the access-log retention, the critical results check its times allowed, the report its fonts in S3)', () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    const busId = prod.onlyOfType('AWS::Events::EventBus')[0];
    const bucketId = prod.logicalIdOf(prod.stack.node.findChild('Documents'));
    for (const { construct, fn } of prod.functions) {
      const paged = construct instanceof ApiFunction && servesPages(construct.routeName);
      expect((prod.resources[fn]!.Properties.Environment as { Variables: unknown }).Variables).toEqual({
        TABLE_NAME: { Ref: tableId },
        DOCUMENTS_BUCKET: { Ref: bucketId },
        EVENT_BUS_NAME: { Ref: busId },
        ...POWERTOOLS_ENVIRONMENT,
        POWERTOOLS_METRICS_NAMESPACE: 'LabApi/LabApi-prod',
        ...(construct instanceof ApiFunction && { LAB_ROUTE_CLASS: SERVICE_LEVEL_CLASSES[construct.functionClass] }),
        NODE_OPTIONS: '--enable-source-maps',
        ...(paged && { CURSOR_SECRET: expect.anything() }),
        ...(construct instanceof ApiFunction && AUDITED_ROUTES.has(construct.routeName) && { AUDIT_RETENTION_DAYS: '730' }),
        ...(construct.functionClass === 'critical-check' && {
          CRITICAL_ACK_MINUTES: String(STAGE_FILES.prod.criticalAckMinutes),
          UNMATCHED_WAIT_MINUTES: String(STAGE_FILES.prod.unmatchedWaitMinutes),
        }),
        ...(construct.functionClass === 'report' && {
          REPORT_FONT_CHINESE: { 'Fn::Sub': expect.stringMatching(ASSET_URL) },
          REPORT_FONT_KOREAN: { 'Fn::Sub': expect.stringMatching(ASSET_URL) },
        }),
        ...((construct.functionClass === 'patient-messages' || construct.functionClass === 'message-reminders') && {
          EMAIL_FROM_ADDRESS: STAGE_FILES.prod.email.fromAddress,
          EMAIL_CONFIGURATION_SET: { Ref: prod.onlyOfType('AWS::SES::ConfigurationSet')[0] },
          EMAIL_LINK_ORIGIN: expect.anything(),
          REMINDER_HOURS_BEFORE: String(STAGE_FILES.prod.reminderHoursBefore),
        }),
      });
    }
    expect(POWERTOOLS_ENVIRONMENT).toMatchObject({
      POWERTOOLS_LOGGER_LOG_EVENT: 'false',
    });
  });

  it('gives CURSOR_SECRET, a deploy-time reference to the generated secret, to the eleven paged lists and no other function', () => {
    const [secretId, secret] = prod.onlyOfType('AWS::SecretsManager::Secret');
    expect(secret.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } });
    expect(secret.Properties).not.toHaveProperty('SecretString');
    const holders = prod.functions.filter(({ fn }) => 'CURSOR_SECRET' in (prod.resources[fn]!.Properties.Environment as { Variables: object }).Variables);
    expect(holders.map(({ construct }) => (construct as ApiFunction).routeName).sort()).toEqual([
      'listAppointmentHistory',
      'listEvents',
      'listHomeKitOrderHistory',
      'listProfileAccessLog',
      'listProfileAppointments',
      'listProfileHomeKitOrders',
      'listProfileMessages',
      'listShipmentHistory',
      'listShipments',
      'listUnmatchedResults',
      'listWebhookDeliveries',
    ]);
    for (const { fn } of holders) {
      const value = str((prod.resources[fn]!.Properties.Environment as { Variables: { CURSOR_SECRET: unknown } }).Variables.CURSOR_SECRET);
      expect(value).toContain('{{resolve:secretsmanager:');
      expect(value).toContain(`"Ref":"${secretId}"`);
    }
  });

  it('sets WEBHOOKS_ALLOW_LOOPBACK (local stack only: webhooks to 127.0.0.1 over http) on no function', () => {
    const functions = prod.ofType('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      expect((fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables, id).not.toHaveProperty('WEBHOOKS_ALLOW_LOOPBACK');
    }
    expect(str(prod.template.toJSON())).not.toContain('WEBHOOKS_ALLOW_LOOPBACK');
  });

  it('sizes each function by its class: static routes, reads, writes, the document route, webhook senders, the relay, ingest, the webhook functions and the critical results check', () => {
    const expectSize = (route: RouteName | FunctionClass, cls: FunctionClass) =>
      expect(fnProps(route), route).toMatchObject({
        MemorySize: FUNCTION_SIZES[cls].memorySize,
        Timeout: FUNCTION_SIZES[cls].timeout.toSeconds(),
      });
    for (const [name, route] of routeEntries) expectSize(name, routeClassOf(name, route));
    expectSize('relay', 'relay');
    expectSize('ingest', 'ingest');
    expectSize('webhook-dispatch', 'webhook-dispatch');
    expectSize('webhook-retries', 'webhook-retries');
    expectSize('critical-check', 'critical-check');
    expect(routesOfClass('read').length).toBeGreaterThan(0);
    expect(routesOfClass('write').length).toBeGreaterThan(0);
    expect(routeClassOf('getDocument', routes.getDocument)).toBe('document');
    expect(
      routesOfClass('static')
        .map(([name]) => name)
        .sort(),
    ).toEqual(['getDocsAsset', 'getDocsPage', 'getOpenApiDocument', 'health']);
    // Every API function answers within API Gateway's 29 s integration timeout.
    for (const cls of ['static', 'read', 'write', 'document', 'report', 'webhook-sender'] as const)
      expect(FUNCTION_SIZES[cls].timeout.toSeconds()).toBeLessThan(29);
  });

  it("gives the routes that send a webhook within the request (a test send, a manual retry) 20 s instead of a write's 10 s", () => {
    expect([...WEBHOOK_SENDERS].sort()).toEqual(['retryWebhookDelivery', 'sendTestWebhook']);
    for (const name of WEBHOOK_SENDERS) {
      expect(routeClassOf(name, routes[name]), name).toBe('webhook-sender');
      expect(fnProps(name), name).toMatchObject({ Timeout: 20, MemorySize: 256 });
    }
    expect(FUNCTION_SIZES.write.timeout.toSeconds()).toBe(10);
  });

  it('routes the other webhook routes by their method: GET reads, the rest writes', () => {
    const others = routeEntries.filter(([name, route]) => /webhook/i.test(name + route.path) && !WEBHOOK_SENDERS.includes(name));
    expect(others.length).toBeGreaterThan(0);
    for (const [name, route] of others) {
      expect(routeClassOf(name, route), name).toBe(route.method === 'GET' ? 'read' : 'write');
    }
  });

  it('sets no application log level on any function: Lambda would drop the metrics lines, which carry no level', () => {
    const filtered = prod.functions.filter(
      ({ fn }) => (prod.resources[fn]!.Properties.LoggingConfig as { ApplicationLogLevel?: string } | undefined)?.ApplicationLogLevel,
    );
    expect(prod.functions.length).toBeGreaterThan(0);
    expect(filtered.map(({ fn }) => fn)).toEqual([]);
  });

  it('traces every function with X-Ray and logs it to its own log group, kept a year and retained', () => {
    for (const { fn, logGroup } of prod.functions) {
      expect(prod.resources[fn]!.Properties).toMatchObject({ TracingConfig: { Mode: 'Active' }, LoggingConfig: { LogGroup: { Ref: logGroup } } });
      expect(prod.resources[logGroup]).toMatchObject({
        Properties: { RetentionInDays: 365 },
        DeletionPolicy: 'Retain',
      });
    }
  });

  it('reserves no concurrency for any function, so a deploy fits an account with the default quota', () => {
    const reserving = prod.ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserving.map(([id]) => id)).toEqual([]);
  });

  it('runs the outbox relay every minute, each run ending within its minute', () => {
    expect(fnProps('relay').Timeout).toBeLessThan(60);
    expect(scheduleOf(functionOf('relay').fn)?.ScheduleExpression).toBe('rate(1 minute)');
  });

  it('runs the critical results check every 5 minutes, never retried (the next run counts again)', () => {
    const check = functionOf('critical-check');
    const schedule = scheduleOf(check.fn);
    expect(schedule?.ScheduleExpression).toBe('rate(5 minutes)');
    expect(schedule?.Targets).toEqual([expect.objectContaining({ RetryPolicy: { MaximumRetryAttempts: 0 } })]);
    expect(fnProps('critical-check').Timeout).toBeLessThan(5 * 60);
  });

  it('runs the webhook retry sweep every minute, each run ending within its minute, never retried by EventBridge or Lambda', () => {
    const retries = functionOf('webhook-retries');
    expect(fnProps('webhook-retries').Timeout).toBeLessThan(60);
    const schedule = scheduleOf(retries.fn);
    expect(schedule?.ScheduleExpression).toBe('rate(1 minute)');
    expect(schedule?.Targets).toEqual([expect.objectContaining({ RetryPolicy: { MaximumRetryAttempts: 0 } })]);
    prod.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: retries.fn }, MaximumRetryAttempts: 0 });
  });
});

/** Where `cdk deploy` uploads a file asset: the bootstrap's staging bucket, under the file's hash. */
const ASSET_URL = /^s3:\/\/cdk-hnb659fds-assets-\$\{AWS::AccountId\}-\$\{AWS::Region\}\/[0-9a-f]{64}\.ttf$/;

describe('the LabApi stack (prod): least privilege', () => {
  it('gives the static routes (health, the OpenAPI document, the docs page and its files) no right but their logs and X-Ray', () => {
    for (const [name] of routesOfClass('static')) {
      const actions = prod.allowedActions(functionOf(name).role).filter((action) => !/^(logs|xray):/.test(action));
      expect(actions, name).toEqual([]);
    }
  });

  it("lets reading routes GetItem, Query and BatchGetItem the table (and its indexes), record a key's last use and, those that show a person, put access-log entries; nothing else", () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    for (const [name] of [...routesOfClass('read'), ...routesOfClass('document'), ...routesOfClass('report')]) {
      const { role } = functionOf(name);
      const puts = AUDITED_ROUTES.has(name) ? ['dynamodb:PutItem'] : [];
      const counts = LINK_REQUEST_COUNTERS.includes(name) ? ['dynamodb:UpdateItem'] : [];
      const consents = CONSENT_WITHDRAWERS.includes(name) ? ['dynamodb:UpdateItem'] : [];
      expect(prod.allowedActions(role, 'dynamodb:'), name).toEqual([...TABLE_READS, ...puts, 'dynamodb:UpdateItem', ...counts, ...consents].sort());
      const tableStatement = prod.statementsOf(role).find((s) => str(s.Action).includes('dynamodb:GetItem'))!;
      expect(str(tableStatement.Resource)).toContain(`"${tableId}"`);
      expect(str(tableStatement.Resource)).toContain('/index/GSI1');
    }
  });

  it('gives the right to put access-log entries (ACCESS#<profile id> and SANDBOX#ACCESS#<profile id>, the table only) to exactly the routes that record reads', () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    const auditStatement = {
      Effect: 'Allow',
      Action: 'dynamodb:PutItem',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCESS#*', 'SANDBOX#ACCESS#*'] } },
    };
    const accessLogPuts = (name: RouteName) => prod.statementsOf(functionOf(name).role).filter((s) => str(s.Condition).includes('ACCESS#'));
    const holders = routeEntries.map(([name]) => name).filter((name) => accessLogPuts(name).length > 0);
    expect(holders.sort()).toEqual([...AUDITED_ROUTES].sort());
    for (const name of holders) expect(accessLogPuts(name), name).toEqual([auditStatement]);
  });

  it('lets no reading route that does not record reads put anything (locations, the catalog, shipments, webhooks, the access log itself)', () => {
    const readers = routeEntries.filter(([name, route]) => route.method === 'GET' && routeClassOf(name, route) !== 'static' && !AUDITED_ROUTES.has(name));
    expect(readers.map(([name]) => name)).toContain('listProfileAccessLog');
    for (const [name] of readers) expect(prod.allowedActions(functionOf(name).role, 'dynamodb:'), name).not.toContain('dynamodb:PutItem');
  });

  it("lets reading routes update only an API key's day of last use (APIKEY#<sha256>, last_used_on), nothing else of a key", () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    for (const [name] of [...routesOfClass('read'), ...routesOfClass('document'), ...routesOfClass('report')]) {
      const updates = prod
        .statementsOf(functionOf(name).role)
        .filter((s) => str(s.Action).includes('dynamodb:UpdateItem') && !/PATIENT_LINK_RATE#|"PROFILE#/.test(str(s.Condition)));
      expect(updates, name).toEqual([
        {
          Effect: 'Allow',
          Action: 'dynamodb:UpdateItem',
          Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'last_used_on'] },
          },
        },
      ]);
    }
  });

  it("lets the patient's page (a GET, so a read) count its link's requests: UpdateItem of PATIENT_LINK_RATE#<sha256> items only, of their count and TTL only; no other reading route", () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    const rateStatement = {
      Effect: 'Allow',
      Action: 'dynamodb:UpdateItem',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      Condition: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PATIENT_LINK_RATE#*'] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'count', TTL_ATTRIBUTE] },
      },
    };
    const rateUpdates = (name: RouteName) => prod.statementsOf(functionOf(name).role).filter((s) => str(s.Condition).includes('PATIENT_LINK_RATE#'));
    const holders = routeEntries.map(([name]) => name).filter((name) => rateUpdates(name).length > 0);
    expect(holders).toEqual(['getPatientPage']);
    expect([...LINK_REQUEST_COUNTERS]).toEqual(['getPatientPage']);
    expect(rateUpdates('getPatientPage')).toEqual([rateStatement]);
    // The two changes count the same item and are writes: their class's UpdateItem covers it.
    for (const name of ['reschedulePatientAppointment', 'cancelPatientAppointment'] as const) {
      expect(routeClassOf(name, routes[name]), name).toBe('write');
    }
  });

  it('lets the keyless one-click unsubscribe (POST /u/{token}) read, and update only the consent of a profile (PROFILE#*: the flag and updated_at; erased_at, which its condition reads): no Put, no Delete, no bus', () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    expect(routeClassOf('unsubscribe', routes.unsubscribe)).toBe('read');
    const consentUpdates = (name: RouteName) => prod.statementsOf(functionOf(name).role).filter((s) => str(s.Condition).includes('"PROFILE#'));
    const holders = routeEntries.map(([name]) => name).filter((name) => consentUpdates(name).length > 0);
    expect(holders).toEqual(['unsubscribe']);
    expect(consentUpdates('unsubscribe')).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROFILE#*'] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'transactional_emails_enabled', 'updated_at', 'erased_at'] },
        },
      },
    ]);
    const actions = prod.allowedActions(functionOf('unsubscribe').role, 'dynamodb:');
    for (const write of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem']) expect(actions).not.toContain(write);
    expect(prod.allowedActions(functionOf('unsubscribe').role, 'events:')).toEqual([]);
  });

  it('lets writing routes and results-ingest also put, update, delete and condition-check items; the relay only queries, reads again, deletes and updates', () => {
    // Once each: a writing route that records reads also holds the access-log put, which its class's PutItem covers.
    for (const [name] of routesOfClass('write')) expect([...new Set(prod.allowedActions(functionOf(name).role, 'dynamodb:'))], name).toEqual(TABLE_WRITES);
    expect(prod.allowedActions(functionOf('ingest').role, 'dynamodb:')).toEqual(TABLE_WRITES);
    expect(prod.allowedActions(functionOf('relay').role, 'dynamodb:')).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
  });

  it('lets the API key authorizer only GetItem API key items (LeadingKeys APIKEY#*), and touch neither the bucket nor the bus', () => {
    const { role } = functionOf('authorizer');
    expect(prod.allowedActions(role, 'dynamodb:')).toEqual(['dynamodb:GetItem']);
    const [statement] = prod.statementsOf(role).filter((s) => str(s.Action).includes('dynamodb:'));
    expect(statement!.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] } });
    expect(prod.allowedActions(role, 's3:')).toEqual([]);
    expect(prod.allowedActions(role, 'events:')).toEqual([]);
  });

  it('lets the critical results check only Query the table and its indexes, and touch neither the bucket nor the bus', () => {
    const { role } = functionOf('critical-check');
    expect(prod.allowedActions(role, 'dynamodb:')).toEqual(['dynamodb:Query']);
    expect(prod.allowedActions(role, 's3:')).toEqual([]);
    expect(prod.allowedActions(role, 'events:')).toEqual([]);
  });

  it('lets the webhook routes that send within the request do what a writing route does to the table', () => {
    for (const name of WEBHOOK_SENDERS) expect(prod.allowedActions(functionOf(name).role, 'dynamodb:'), name).toEqual(TABLE_WRITES);
  });

  it('lets the webhook dispatcher and retry sweep read, put and update items only, and touch neither the bucket nor the bus', () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    for (const cls of ['webhook-dispatch', 'webhook-retries'] as const) {
      const { role } = functionOf(cls);
      expect(prod.allowedActions(role, 'dynamodb:'), cls).toEqual(WEBHOOK_DELIVERY_ACTIONS);
      const tableStatement = prod.statementsOf(role).find((s) => str(s.Action).includes('dynamodb:'))!;
      expect(str(tableStatement.Resource), cls).toContain(`"${tableId}"`);
      expect(str(tableStatement.Resource), cls).toContain('/index/GSI2');
      // Reading a key by its id (shared/store/api-keys/lookup.ts) gets KEYID#<id>, then its secrets' APIKEY# items.
      expect(tableStatement.Condition, cls).toBeUndefined();
      expect(prod.allowedActions(role, 's3:'), cls).toEqual([]);
      expect(prod.allowedActions(role, 'events:'), cls).toEqual([]);
    }
  });

  it('lets the webhook dispatcher consume its queue and no other, and the retry sweep no queue at all', () => {
    const { queueId } = webhookQueue();
    const { role } = functionOf('webhook-dispatch');
    const sqs = prod.statementsOf(role).filter((s) => str(s.Action).includes('sqs:'));
    expect(sqs).toHaveLength(1);
    expect([sqs[0]!.Action].flat()).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']));
    expect([sqs[0]!.Action].flat()).not.toContain('sqs:SendMessage');
    expect(sqs[0]!.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    expect(prod.allowedActions(functionOf('webhook-retries').role, 'sqs:')).toEqual([]);
  });

  it("lets only the writing routes, the relay and results-ingest put events, on the stack's bus only", () => {
    const [busId] = prod.onlyOfType('AWS::Events::EventBus');
    for (const { construct, role } of prod.functions) {
      // A webhook sender changes deliveries only, which announce nothing; so do the dispatcher and the sweep, and
      // the one-click unsubscribe, which changes a consent flag only.
      const publishes =
        construct instanceof ApiFunction
          ? construct.route.method !== 'GET' && !WEBHOOK_SENDERS.includes(construct.routeName) && !CONSENT_WITHDRAWERS.includes(construct.routeName)
          : construct.functionClass === 'relay' || construct.functionClass === 'ingest';
      const statements = prod.statementsOf(role).filter((s) => str(s.Action).includes('events:'));
      expect(statements.length > 0, construct.node.path).toBe(publishes);
      for (const statement of statements) {
        expect(statement.Action).toBe('events:PutEvents');
        expect(statement.Resource).toEqual({ 'Fn::GetAtt': [busId, 'Arn'] });
      }
    }
  });

  it('lets each PDF renderer (the results report, the requisition forms) read exactly its two CJK font objects in the asset bucket, in this account only; no other function reads there', () => {
    const roles = routesOfClass('report').map(([name]) => functionOf(name).role);
    expect(roles).toHaveLength(REPORT_RENDERERS.length);
    for (const role of roles) {
      const fontReads = prod.statementsOf(role).filter((s) => str(s.Resource).includes('cdk-hnb659fds-assets'));
      expect(fontReads).toHaveLength(1);
      const [statement] = fontReads;
      expect(statement!.Action).toBe('s3:GetObject');
      expect(statement!.Condition).toEqual({ StringEquals: { 'aws:ResourceAccount': { Ref: 'AWS::AccountId' } } });
      const objects = [statement!.Resource].flat().map((resource) => str(resource));
      expect(objects).toHaveLength(2);
      for (const object of objects) expect(object).toMatch(/cdk-hnb659fds-assets-\$\{AWS::AccountId\}-\$\{AWS::Region\}"\},"\/[0-9a-f]{64}\.ttf"\]\]\}$/);
    }
    for (const { construct, role: other } of prod.functions.filter(({ role: r }) => !roles.includes(r))) {
      expect(str(prod.statementsOf(other)), construct.node.path).not.toContain('cdk-hnb659fds-assets');
    }
  });

  it("lets only the document route read filed reports, results-ingest file the lab's uploads, and the unmatched results' match and discard their files", () => {
    for (const { construct, role } of prod.functions) {
      // The documents bucket: the report's fonts in the asset bucket are the test below this one.
      const touchesBucket = prod.statementsOf(role).some((s) => str(s.Action).includes('s3:') && !str(s.Resource).includes('cdk-hnb659fds-assets'));
      const expected =
        construct.functionClass === 'document' ||
        construct.functionClass === 'ingest' ||
        (construct instanceof ApiFunction && UNMATCHED_RESULT_FILERS.includes(construct.routeName));
      expect(touchesBucket, construct.node.path).toBe(expected);
    }
    const s3Of = (route: RouteName | FunctionClass) =>
      prod
        .statementsOf(functionOf(route).role)
        .filter((s) => str(s.Action).includes('s3:'))
        .map((s) => ({ actions: [s.Action].flat().sort(), on: str(s.Resource).match(/"\/([\w/-]+)\/\*"|"Arn"\]\}$/)?.[1] ?? 'bucket' }));
    // ListBucket: a deleted file is then a 404 from S3 (HeadObject, GetObject), not a 403 (docs/privacy.md "Privacy").
    expect(s3Of('getDocument')).toEqual([
      { actions: ['s3:GetObject'], on: 'documents' },
      { actions: ['s3:ListBucket'], on: 'bucket' },
    ]);
    expect(s3Of('ingest')).toEqual([
      // The versions: an HL7 message is read and deleted as the version S3 announced.
      { actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:GetObject', 's3:GetObjectTagging', 's3:GetObjectVersion'], on: 'incoming' },
      // The PDFs an HL7 message embeds, under a prefix of their own: never where the lab's messages go.
      { actions: ['s3:PutObject'], on: 'incoming/hl7-documents' },
      // A report that matched no order: its files copied under unmatched/<id>/ (issue #51).
      { actions: ['s3:PutObject', 's3:PutObjectTagging'], on: 'unmatched' },
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject', 's3:PutObjectTagging'], on: 'documents' },
      { actions: ['s3:ListBucket'], on: 'bucket' },
    ]);
    // A match files the kept files as ingest would, and deletes them; a discard only deletes them.
    expect(s3Of('matchUnmatchedResult')).toEqual([
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:GetObjectTagging'], on: 'unmatched' },
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject', 's3:PutObjectTagging'], on: 'documents' },
      { actions: ['s3:ListBucket'], on: 'bucket' },
    ]);
    expect(s3Of('discardUnmatchedResult')).toEqual([{ actions: ['s3:DeleteObject'], on: 'unmatched' }]);
  });

  it('grants nothing on "*" but X-Ray\'s two actions, and lets each function log to its own log group only', () => {
    for (const { role, logGroup, construct } of prod.functions) {
      const statements = prod.statementsOf(role);
      for (const statement of statements.filter((s) => s.Resource === '*')) {
        expect([statement.Action].flat().sort(), construct.node.path).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      }
      const logs = statements.filter((s) => str(s.Action).includes('logs:'));
      expect(
        logs.map((s) => s.Resource),
        construct.node.path,
      ).toEqual([{ 'Fn::GetAtt': [logGroup, 'Arn'] }]);
      // No managed policy (AWSLambdaBasicExecutionRole would allow writing to any log group).
      expect(prod.resources[role]!.Properties.ManagedPolicyArns, construct.node.path).toBeUndefined();
    }
  });
});

describe('the LabApi stack (prod): API Gateway', () => {
  it('exposes exactly the methods of the routes table, each invoking its own route function', () => {
    const methods = apiMethods().filter((m) => m.method !== 'ANY');
    const expected = routeEntries.map(([, route]) => `${route.method} ${route.path}`);
    expect(methods.map((m) => `${m.method} ${m.path}`).sort()).toEqual(expected.sort());
    for (const [name, route] of routeEntries) {
      const method = methods.find((m) => m.method === route.method && m.path === route.path)!;
      expect(method.integration.Type).toBe('AWS_PROXY');
      expect(str(method.integration.Uri)).toContain(`"${functionOf(name).fn}"`);
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

  it('sends documents as bytes whatever the Accept header: binaryMediaTypes */*, Lambda proxies unconverted, the mock 405 as text', () => {
    expect(prod.onlyOfType('AWS::ApiGateway::RestApi')[1].Properties.BinaryMediaTypes).toEqual(['*/*']);
    for (const { method, integration } of apiMethods()) {
      if (method === 'ANY') {
        expect(integration.ContentHandling).toBe('CONVERT_TO_TEXT');
      } else {
        // A proxy integration passes the body through: the function answers base64 + isBase64Encoded.
        expect(integration.ContentHandling, method).toBeUndefined();
        expect(integration.IntegrationResponses, method).toBeUndefined();
      }
    }
  });

  it("refuses a request without x-api-key on every keyed route at the gateway, with the functions' own 401 {error}", () => {
    const [validatorId, validator] = prod.onlyOfType('AWS::ApiGateway::RequestValidator');
    expect(validator.Properties).toMatchObject({ ValidateRequestParameters: true, ValidateRequestBody: false });
    const methods = apiMethods();
    for (const [name, route] of routeEntries) {
      const { properties } = methods.find((m) => m.method === route.method && m.path === route.path)!;
      if (route.scopes.length > 0) {
        expect(properties.RequestParameters, name).toEqual({ [`method.request.header.${API_KEY_HEADER}`]: true });
        expect(properties.RequestValidatorId, name).toEqual({ Ref: validatorId });
      } else {
        expect(properties.RequestParameters, name).toBeUndefined();
        expect(properties.RequestValidatorId, name).toBeUndefined();
      }
    }
    prod.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'BAD_REQUEST_PARAMETERS',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': JSON.stringify({ error: MISSING_KEY_MESSAGE }) },
    });
  });

  it('answers an unknown path 404 with an {error} body, and its own other errors with an {error} body too', () => {
    prod.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': '{"error":"Not found"}' },
    });
    for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      prod.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseTemplates: { 'application/json': Match.stringLikeRegexp('^\\{"error":') },
      });
    }
  });

  it('throttles the stage as the prod stage file says (without context), traces it, and logs execution errors without request data', () => {
    const stage = prod.onlyOfType('AWS::ApiGateway::Stage')[1].Properties;
    expect(stage).toMatchObject({ StageName: 'prod', TracingEnabled: true });
    expect(stage.MethodSettings).toEqual([
      {
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: STAGE_FILES.prod.throttle.rateLimit,
        ThrottlingBurstLimit: STAGE_FILES.prod.throttle.burstLimit,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
        MetricsEnabled: false,
      },
    ]);
    // The execution log group API Gateway writes to, created with a retention instead of by API Gateway.
    prod.template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: Match.anyValue() }, '/prod']] },
      RetentionInDays: 365,
    });
  });

  it('writes JSON access logs with request id, route, status and latency, never a body, a header or the API key', () => {
    const stage = prod.onlyOfType('AWS::ApiGateway::Stage')[1].Properties;
    const { Format, DestinationArn } = stage.AccessLogSetting as { Format: string; DestinationArn: unknown };
    const fields = JSON.parse(Format) as Record<string, string>;
    expect(fields).toEqual(ACCESS_LOG_FIELDS);
    expect(fields).toMatchObject({ requestId: '$context.requestId', status: '$context.status', resourcePath: '$context.resourcePath' });
    expect(Format).not.toMatch(/apiKey|\$input|body|header|querystring|authorizer/i);
    // The path called carries an unsubscribe link's token (/u/{token}): the template only.
    expect(Format).not.toContain('$context.path');
    const [logGroupId] = prod.ofType('AWS::Logs::LogGroup').find(([id]) => str(DestinationArn).includes(`"${id}"`))!;
    expect(prod.resources[logGroupId]).toMatchObject({ Properties: { RetentionInDays: 365 }, DeletionPolicy: 'Retain' });
  });

  it('samples no X-Ray trace of a path that carries a token (/p/, /u/), whose URL API Gateway would record', () => {
    const rules = prod.ofType('AWS::XRay::SamplingRule').map(([, rule]) => (rule.Properties as { SamplingRule: Record<string, unknown> }).SamplingRule);
    expect(rules.map((rule) => rule.URLPath).sort()).toEqual(['*/p/*', '*/u/*']);
    for (const rule of rules)
      expect(rule).toMatchObject({ Priority: 1, ReservoirSize: 0, FixedRate: 0, ServiceType: 'AWS::ApiGateway::Stage', HTTPMethod: '*' });
  });

  it("sets the region's API Gateway logging role through the account stack it depends on, unless told the account has one", () => {
    expect(prod.ofType('AWS::ApiGateway::Account')).toEqual([]);
    const { accountStack } = prod.stack as LabApiStack;
    expect(prod.stack.dependencies).toEqual([accountStack]);
    expect(Template.fromStack(accountStack!).findResources('AWS::ApiGateway::Account')).toEqual({
      ApiGatewayAccount: expect.objectContaining({ Type: 'AWS::ApiGateway::Account' }),
    });
  });
});

describe('the LabApi stack (prod): data', () => {
  it('declares the keys and indexes the local stack creates, on demand, with point-in-time recovery and TTL', () => {
    const local = tableDefinition('any');
    const table = prod.onlyOfType('AWS::DynamoDB::Table')[1].Properties;
    expect(table.KeySchema).toEqual(local.KeySchema);
    expect(sortedByName(table.AttributeDefinitions as typeof local.AttributeDefinitions)).toEqual(sortedByName(local.AttributeDefinitions));
    expect(sortedByName(table.GlobalSecondaryIndexes as typeof local.GlobalSecondaryIndexes)).toEqual(sortedByName(local.GlobalSecondaryIndexes));
    expect(table).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it("encrypts the table with the AWS-owned key, not the stack's KMS key (that one is for logs)", () => {
    const table = prod.onlyOfType('AWS::DynamoDB::Table')[1].Properties;
    // No SSESpecification, or SSEEnabled false: DynamoDB's default encryption with an AWS-owned key.
    expect((table.SSESpecification as { SSEEnabled?: boolean } | undefined)?.SSEEnabled ?? false).toBe(false);
    expect(str(table)).not.toContain(prod.onlyOfType('AWS::KMS::Key')[0]);
  });

  it('keeps the table, the buckets, the queues and every log group when the stack is deleted', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::Logs::LogGroup']) {
      const found = prod.ofType(type);
      expect(found.length, type).toBeGreaterThan(0);
      for (const [id, resource] of found) {
        expect({ id, DeletionPolicy: resource.DeletionPolicy, UpdateReplacePolicy: resource.UpdateReplacePolicy }).toEqual({
          id,
          DeletionPolicy: 'Retain',
          UpdateReplacePolicy: 'Retain',
        });
      }
    }
  });

  it('keeps every bucket private, encrypted with S3-managed keys and reachable over TLS only', () => {
    const buckets = prod.ofType('AWS::S3::Bucket');
    expect(buckets).toHaveLength(2); // documents and their access logs
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
      const policy = prod.resourcePolicy('AWS::S3::BucketPolicy', (p) => p.Bucket, id);
      expect(policy, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      // Nobody but the stack's own roles (and S3 log delivery) is allowed anything: downloads go through the API.
      const allowed = policy.filter((s) => s.Effect === 'Allow');
      expect(
        allowed.every((s) => str(s.Principal) === '{"Service":"logging.s3.amazonaws.com"}'),
        id,
      ).toBe(true);
    }
  });

  it("versions the documents, logs access to them, expires the lab's leftover uploads under incoming/, unmatched results' files after 91 days and the reports after 10 years", () => {
    const documents = prod.resources[prod.logicalIdOf(prod.stack.node.findChild('Documents'))]!;
    expect(documents.Properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: expect.any(String) } },
    });
    const rules = (documents.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({ Prefix: 'incoming/', ExpirationInDays: 30, NoncurrentVersionExpiration: { NoncurrentDays: 7 }, Status: 'Enabled' }),
    );
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 } }));
    // The files of lab reports that matched no order (issue #51): a day past the 90 days of their unmatched result.
    expect(rules).toContainEqual(
      expect.objectContaining({ Prefix: 'unmatched/', ExpirationInDays: 91, NoncurrentVersionExpiration: { NoncurrentDays: 7 }, Status: 'Enabled' }),
    );
    // Filed reports are kept for the retention period (documentRetentionYears, default 10: 3653 days with leap days).
    expect(rules).toContainEqual(
      expect.objectContaining({ Prefix: 'documents/', ExpirationInDays: 3653, NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' }),
    );
  });

  it('versions the access logs, so that a deleted log file stays recoverable for 30 days, and deletes them after a year', () => {
    const accessLogs = prod.resources[prod.logicalIdOf(prod.stack.node.findChild('AccessLogs'))]!;
    expect(accessLogs.Properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 365, NoncurrentVersionExpiration: { NoncurrentDays: 30 } })] },
    });
  });
});

describe('the LabApi stack (prod): HIPAA controls', () => {
  const keyId = () => prod.onlyOfType('AWS::KMS::Key')[0];
  const keyStatements = () => (prod.onlyOfType('AWS::KMS::Key')[1].Properties.KeyPolicy as { Statement: Statement[] }).Statement;
  const backupRules = () =>
    (prod.onlyOfType('AWS::Backup::BackupPlan')[1].Properties.BackupPlan as { BackupPlanRule: Record<string, unknown>[] }).BackupPlanRule;

  it("encrypts every log group with the operational data key: the functions' own and the API's access and execution logs", () => {
    const logGroups = prod.ofType('AWS::Logs::LogGroup');
    expect(logGroups).toHaveLength(prod.functions.length + 2);
    for (const [id, logGroup] of logGroups) expect(logGroup.Properties.KmsKeyId, id).toEqual({ 'Fn::GetAtt': [keyId(), 'Arn'] });
  });

  it('rotates the operational data key and keeps it when the stack is deleted (its logs stay readable)', () => {
    const [, key] = prod.onlyOfType('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it("lets CloudWatch Logs of the stack's region use the key, for log groups of this account and region only", () => {
    const logs = keyStatements().filter((s) => str(s.Principal).includes('logs.'));
    expect(logs).toHaveLength(1);
    expect(str(logs[0]!.Principal)).toBe(str({ Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } }));
    expect([logs[0]!.Action].flat().sort()).toEqual(['kms:Decrypt*', 'kms:Describe*', 'kms:Encrypt*', 'kms:GenerateDataKey*', 'kms:ReEncrypt*']);
    expect(logs[0]).toMatchObject({
      Effect: 'Allow',
      Condition: {
        ArnLike: {
          'kms:EncryptionContext:aws:logs:arn': {
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':logs:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':log-group:*']],
          },
        },
      },
    });
  });

  it('lets CloudWatch alarms decrypt and generate data keys with it, to publish to an alarm topic it encrypts', () => {
    expect(keyStatements().filter((s) => str(s.Principal) === str({ Service: 'cloudwatch.amazonaws.com' }))).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] }),
    ]);
  });

  it("backs up the table and the documents bucket with AWS Backup, by a role of AWS's backup and restore policies for both", () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    const documentsId = prod.logicalIdOf(prod.stack.node.findChild('Documents'));
    const selection = prod.onlyOfType('AWS::Backup::BackupSelection')[1].Properties.BackupSelection as { Resources: unknown[]; IamRoleArn: unknown };
    expect(selection.Resources).toEqual([{ 'Fn::GetAtt': [tableId, 'Arn'] }, { 'Fn::GetAtt': [documentsId, 'Arn'] }]);
    const roleId = (selection.IamRoleArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    expect(str(prod.resources[roleId]!.Properties.ManagedPolicyArns)).toEqual(expect.stringContaining('AWSBackupServiceRolePolicyForS3Restore'));
    expect((prod.resources[roleId]!.Properties.ManagedPolicyArns as unknown[]).map((arn) => str(arn).match(/policy\/service-role\/(\w+)/)?.[1])).toEqual([
      'AWSBackupServiceRolePolicyForBackup',
      'AWSBackupServiceRolePolicyForRestores',
      'AWSBackupServiceRolePolicyForS3Backup',
      'AWSBackupServiceRolePolicyForS3Restore',
    ]);
  });

  it('keeps a daily backup 35 days and a monthly one (the 1st) a year, at 03:00 UTC, without cold storage', () => {
    expect(backupRules()).toEqual([
      expect.objectContaining({ RuleName: 'Daily', ScheduleExpression: 'cron(0 3 * * ? *)', Lifecycle: { DeleteAfterDays: 35 } }),
      expect.objectContaining({ RuleName: 'Monthly', ScheduleExpression: 'cron(0 3 1 * ? *)', Lifecycle: { DeleteAfterDays: 365 } }),
    ]);
  });

  it('keeps the backups in a vault of their own that refuses to delete a recovery point early, and outlives the stack', () => {
    const [vaultId, vault] = prod.onlyOfType('AWS::Backup::BackupVault');
    expect(vault).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect((vault.Properties.AccessPolicy as { Statement: Statement[] }).Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: expect.arrayContaining(['backup:DeleteRecoveryPoint']) }),
    );
    for (const rule of backupRules()) expect(rule.TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });
  });

  it('invokes each function as its class says (INVOKED_BY, which picks its HIPAA reasons): API Gateway, a schedule, the webhook queue, or event rules with a dead-letter queue', () => {
    const permissions = prod.ofType('AWS::Lambda::Permission');
    for (const { construct, fn } of prod.functions) {
      const invokedBy = {
        api: permissions.some(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com' && str(p.Properties.FunctionName).includes(`"${fn}"`)),
        schedule: scheduleOf(fn) !== undefined,
        queue: prod.ofType('AWS::Lambda::EventSourceMapping').some(([, m]) => str(m.Properties.FunctionName).includes(`"${fn}"`)),
        event: prod.resources[fn]!.Properties.DeadLetterConfig !== undefined,
      };
      const ways = Object.entries(invokedBy).flatMap(([way, found]) => (found ? [way] : []));
      expect({ fn: construct.node.path, ways }).toEqual({ fn: construct.node.path, ways: [INVOKED_BY[construct.functionClass]] });
    }
  });
});

describe('the LabApi stack (prod): events', () => {
  it("archives every event of the bus for 30 days, ours and the lab's, for replay", () => {
    const [busId] = prod.onlyOfType('AWS::Events::EventBus');
    const archive = prod.onlyOfType('AWS::Events::Archive')[1].Properties;
    expect(archive).toMatchObject({
      SourceArn: { 'Fn::GetAtt': [busId, 'Arn'] },
      RetentionDays: 30,
      EventPattern: { source: ['lab-api', 'lab-partner'] },
    });
  });

  it('sends LabResultsReported from lab-partner to results-ingest, retried, failures in a dead-letter queue', () => {
    const [busId] = prod.onlyOfType('AWS::Events::EventBus');
    const ingest = functionOf('ingest');
    const [, rule] = prod.ofType('AWS::Events::Rule').find(([, r]) => str(r.Properties.Targets).includes(`"${ingest.fn}"`) && r.Properties.EventBusName)!;
    expect(rule.Properties).toMatchObject({
      EventBusName: { Ref: busId },
      EventPattern: { source: ['lab-partner'], 'detail-type': ['LabResultsReported'] },
    });
    const [target] = rule.Properties.Targets as { RetryPolicy: Record<string, number>; DeadLetterConfig: { Arn: unknown } }[];
    expect(target!.RetryPolicy.MaximumRetryAttempts).toBeGreaterThan(0);
    expect(target!.RetryPolicy.MaximumEventAgeInSeconds).toBeGreaterThan(0);
    // A report the function refuses (it throws) fails its asynchronous invocation: after Lambda's retries
    // it goes to the same dead-letter queue as an event EventBridge could not deliver.
    expect(fnProps('ingest').DeadLetterConfig).toEqual({ TargetArn: target!.DeadLetterConfig.Arn });
    prod.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: ingest.fn },
      MaximumRetryAttempts: 2,
    });
    expect(prod.allowedActions(ingest.role, 'sqs:')).toEqual(['sqs:SendMessage']);
  });

  it("sends the HL7 messages the lab uploads under incoming/hl7/ (S3's Object Created, on the default bus) to results-ingest, failures in the same dead-letter queue", () => {
    const ingest = functionOf('ingest');
    const rules = prod.ofType('AWS::Events::Rule').filter(([, r]) => str(r.Properties.Targets).includes(`"${ingest.fn}"`));
    const hl7 = rules.find(([, r]) => !r.Properties.EventBusName)![1].Properties;
    expect(hl7.EventPattern).toMatchObject({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { object: { key: [{ prefix: 'incoming/hl7/' }] } },
    });
    expect(str((hl7.EventPattern as { detail: { bucket: unknown } }).detail.bucket)).toContain('name');
    const dlqs = rules.map(([, r]) => str((r.Properties.Targets as { DeadLetterConfig: unknown }[])[0]!.DeadLetterConfig));
    expect(new Set(dlqs).size).toBe(1);
  });

  it('has the documents bucket tell EventBridge of new objects, without a notifications custom resource', () => {
    const bucketId = prod.logicalIdOf(prod.stack.node.findChild('Documents'));
    expect(prod.resources[bucketId]!.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    expect(prod.ofType('Custom::S3BucketNotifications')).toEqual([]);
  });

  it('delivers LabOrderRequested of source lab-api only (never a sandbox order) to the queue a lab system polls, with a dead-letter queue for what it cannot process', () => {
    const [, rule] = prod.ofType('AWS::Events::Rule').find(([, r]) => str(r.Properties.EventPattern).includes('LabOrderRequested'))!;
    expect(rule.Properties.EventPattern).toEqual({ source: ['lab-api'], 'detail-type': ['LabOrderRequested'] });
    const [target] = rule.Properties.Targets as { Arn: { 'Fn::GetAtt': [string] }; DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string] } } }[];
    const queue = prod.resources[target!.Arn['Fn::GetAtt'][0]]!;
    expect(queue.Type).toBe('AWS::SQS::Queue');
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [target!.DeadLetterConfig.Arn['Fn::GetAtt'][0], 'Arn'] },
      maxReceiveCount: 5,
    });
  });

  it('sends the event types a webhook subscription may ask for from lab-api and lab-api.sandbox to the webhook queue, retried, undeliverable ones in its dead-letter queue', () => {
    const [busId] = prod.onlyOfType('AWS::Events::EventBus');
    const { ruleId, rule, target, queueId, deadLetterQueueId } = webhookQueue();
    expect(rule.Properties).toMatchObject({
      EventBusName: { Ref: busId },
      EventPattern: { source: [EVENT_SOURCE, SANDBOX_EVENT_SOURCE], 'detail-type': [...WEBHOOK_EVENT_TYPES] },
    });
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(prod.resources[queueId]!.Type).toBe('AWS::SQS::Queue');
    expect(prod.resources[deadLetterQueueId]!.Type).toBe('AWS::SQS::Queue');
    expect(target).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 24 * 3600 } });
    // EventBridge may send to both queues, from this rule only.
    for (const id of [queueId, deadLetterQueueId]) {
      const allowed = prod.resourcePolicy('AWS::SQS::QueuePolicy', (p) => p.Queues, id).filter((s) => s.Effect === 'Allow');
      expect(allowed, id).toHaveLength(1);
      expect(allowed[0], id).toMatchObject({
        Principal: { Service: 'events.amazonaws.com' },
        Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [ruleId, 'Arn'] } } },
      });
      expect([allowed[0]!.Action].flat(), id).toContain('sqs:SendMessage');
    }
  });

  it("moves a webhook event to the dead-letter queue after 5 receives, and hides a received one for 6 times the dispatcher's timeout", () => {
    const { queueId, deadLetterQueueId } = webhookQueue();
    const queue = prod.resources[queueId]!.Properties;
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] }, maxReceiveCount: 5 });
    expect(queue.VisibilityTimeout).toBe(6 * Number(fnProps('webhook-dispatch').Timeout));
  });

  it('feeds the webhook dispatcher from its queue 10 events at a time, at once, by at most 10 dispatchers, redelivering only the events it reports failed', () => {
    const { queueId } = webhookQueue();
    const dispatcher = functionOf('webhook-dispatch').fn;
    const [, mapping] = prod.ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => str(m.Properties.FunctionName).includes(`"${dispatcher}"`))!;
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: functionOf('webhook-dispatch').fn },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    expect(mapping.Properties.MaximumBatchingWindowInSeconds ?? 0).toBe(0);
  });

  it('encrypts every queue (SSE-SQS), keeps messages 14 days and refuses plain HTTP', () => {
    const queues = prod.ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(8); // lab orders, its DLQ, the ingest DLQ, webhooks, its DLQ, patient messages, its DLQ, the email feedback DLQ
    for (const [id, queue] of queues) {
      expect(queue.Properties, id).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      const policy = prod.resourcePolicy('AWS::SQS::QueuePolicy', (p) => p.Queues, id);
      expect(policy, id).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    }
  });
});

describe('the LabApi stack (prod): bad keys stopped at the gateway', () => {
  const authorizers = () => prod.ofType('AWS::ApiGateway::Authorizer');

  it('has one REQUEST authorizer on the x-api-key header, its answer cached 60 s per key, run by the authorizer function', () => {
    expect(authorizers()).toHaveLength(1);
    const [, authorizer] = authorizers()[0]!;
    expect(authorizer.Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.x-api-key',
      AuthorizerResultTtlInSeconds: KEY_AUTHORIZER_CACHE_SECONDS,
    });
    expect(str(authorizer.Properties.AuthorizerUri)).toContain(`"${functionOf('authorizer').fn}"`);
  });

  it('puts every keyed method behind the authorizer, and no public one', () => {
    const [authorizerId] = authorizers()[0]!;
    const methods = prod.apiMethods();
    for (const [name, route] of routeEntries) {
      const { properties } = methods.find((m) => m.method === route.method && m.path === route.path)!;
      if (route.scopes.length > 0) expect(properties, name).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      else expect(properties.AuthorizerId, name).toBeUndefined();
    }
  });

  it("answers the authorizer's denial 401 with the route's own message, no key 401 as before, and a failed lookup 503 with Retry-After", () => {
    const response = (type: string) =>
      prod.ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type)![1].Properties as {
        StatusCode: string;
        ResponseTemplates: Record<string, string>;
        ResponseParameters: Record<string, string>;
      };
    expect([response('ACCESS_DENIED').StatusCode, response('ACCESS_DENIED').ResponseTemplates['application/json']]).toEqual([
      '401',
      '{"error":"$context.authorizer.message"}',
    ]);
    expect([response('UNAUTHORIZED').StatusCode, JSON.parse(response('UNAUTHORIZED').ResponseTemplates['application/json']!)]).toEqual([
      '401',
      { error: MISSING_KEY_MESSAGE },
    ]);
    for (const type of ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      expect([response(type).StatusCode, response(type).ResponseParameters['gatewayresponse.header.Retry-After']], type).toEqual(['503', "'1'"]);
    }
  });
});

describe('the LabApi stack (prod): alarms', () => {
  const alarms = () => prod.ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
  const metricsOf = (alarm: Record<string, unknown>) =>
    ((alarm.Metrics as { MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions?: { Value: unknown }[] } } }[]) ?? []).flatMap((m) =>
      m.MetricStat ? [m.MetricStat.Metric] : [],
    );

  it('notifies one SNS topic, TLS only, on alarm and on recovery: every alarm, or the composite alarm it is a window of', () => {
    const [topicId] = prod.onlyOfType('AWS::SNS::Topic');
    const composites = prod.ofType('AWS::CloudWatch::CompositeAlarm').map(([, alarm]) => alarm.Properties);
    // A composite's rule names its windows by ARN: ALARM("<Fn::GetAtt [window, Arn]>").
    const windows = new Set(composites.flatMap((composite) => [...str(composite.AlarmRule).matchAll(/"Fn::GetAtt":\["(\w+)","Arn"\]/g)].map((m) => m[1])));
    expect(alarms().length).toBeGreaterThan(0);
    for (const [id, { Properties: alarm }] of prod.ofType('AWS::CloudWatch::Alarm')) {
      expect(alarm.TreatMissingData).toBe('notBreaching');
      if (windows.has(id)) continue;
      expect(alarm.AlarmActions, String(alarm.AlarmName)).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    }
    expect(windows.size).toBeGreaterThan(0);
    for (const composite of composites) {
      expect(composite.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(composite.OKActions).toEqual([{ Ref: topicId }]);
    }
    const policy = prod.resourcePolicy('AWS::SNS::TopicPolicy', (p) => p.Topics, topicId);
    expect(policy).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  it("alarms on the API's 5xx rate", () => {
    const [api] = alarms().filter((a) => metricsOf(a).some((m) => m.MetricName === '5XXError'));
    expect(api).toBeDefined();
    expect(
      metricsOf(api!)
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual(['5XXError', 'Count']);
    expect(str(api!.Metrics)).toContain('100 * errors / requests');
  });

  it('alarms on errors and throttles of every function of the stack, at most 10 metrics per alarm', () => {
    for (const metricName of ['Errors', 'Throttles']) {
      const watched = alarms().flatMap((alarm) => {
        const metrics = metricsOf(alarm).filter((m) => m.Namespace === 'AWS/Lambda' && m.MetricName === metricName);
        expect(metrics.length).toBeLessThanOrEqual(METRICS_PER_ALARM);
        return metrics.map((m) => (m.Dimensions![0]!.Value as Ref).Ref);
      });
      expect(watched.sort(), metricName).toEqual(prod.functions.map(({ fn }) => fn).sort());
    }
  });

  it('alarms on the first message in each dead-letter queue, the webhook one and the patient email ones included', () => {
    const dlqs = prod.ofType('AWS::SQS::Queue').filter(([id]) => /DeadLetterQueue/.test(id));
    expect(dlqs).toHaveLength(5);
    expect(dlqs.map(([id]) => id)).toContain(webhookQueue().deadLetterQueueId);
    for (const [id] of dlqs) {
      const alarm = alarms().find((a) => str(a.Dimensions).includes(`"${id}"`));
      expect(alarm, id).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('counts outbox events the relay had to publish from its JSON log, and alarms on any', () => {
    const filters = prod.ofType('AWS::Logs::MetricFilter').filter(([, f]) => str(f.Properties.MetricTransformations).includes(OUTBOX_RELAYED_METRIC));
    expect(filters).toHaveLength(1);
    expect(filters[0]![1].Properties).toMatchObject({
      LogGroupName: { Ref: functionOf('relay').logGroup },
      FilterPattern: `{ $.message = "${OUTBOX_RELAYED_LOG.message}" }`,
      MetricTransformations: [expect.objectContaining({ MetricName: OUTBOX_RELAYED_METRIC, MetricValue: '$.published' })],
    });
    const alarm = alarms().find((a) => a.MetricName === OUTBOX_RELAYED_METRIC);
    expect(alarm).toMatchObject({ Threshold: 1, Statistic: 'Sum' });
  });

  it('counts disabled webhook subscriptions from the JSON log of every function that attempts deliveries, and alarms on any: tell the client', () => {
    const filters = prod
      .ofType('AWS::Logs::MetricFilter')
      .filter(([, f]) => str(f.Properties.MetricTransformations).includes(WEBHOOKS_DISABLED_METRIC))
      .map(([, f]) => f.Properties);
    const senders = [functionOf('webhook-dispatch'), functionOf('webhook-retries'), ...WEBHOOK_SENDERS.map((name) => functionOf(name))];
    expect(filters.map((f) => (f.LogGroupName as Ref).Ref).sort()).toEqual(senders.map((f) => f.logGroup).sort());
    const [namespace] = new Set(filters.map((f) => (f.MetricTransformations as { MetricNamespace: string }[])[0]!.MetricNamespace));
    for (const filter of filters) {
      expect(filter).toMatchObject({
        FilterPattern: `{ $.message = "${WEBHOOK_DISABLED_LOG}" }`,
        MetricTransformations: [{ MetricName: WEBHOOKS_DISABLED_METRIC, MetricNamespace: namespace, MetricValue: '1' }],
      });
    }
    const alarm = alarms().find((a) => a.MetricName === WEBHOOKS_DISABLED_METRIC);
    expect(alarm).toMatchObject({ Namespace: namespace, Threshold: 1, Statistic: 'Sum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(String(alarm!.AlarmDescription)).toMatch(/tell the client/);
  });

  it('alarms when the oldest message of the lab orders queue (1 hour), the webhook queue (5 minutes) or the patient messages queue (30 minutes) outgrows its bound, two periods in a row', () => {
    const queues = prod.ofType('AWS::SQS::Queue').filter(([id]) => !/DeadLetterQueue/.test(id));
    expect(queues).toHaveLength(3);
    const bounds = queues.map(([id]) => {
      const alarm = alarms().find((a) => a.MetricName === 'ApproximateAgeOfOldestMessage' && str(a.Dimensions).includes(`"${id}"`));
      expect(alarm, id).toMatchObject({ Statistic: 'Maximum', EvaluationPeriods: 2, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      return alarm!.Threshold;
    });
    expect(bounds.sort((a, b) => Number(a) - Number(b))).toEqual([300, 1800, 3600]);
    expect(webhookQueue().queueId).toBeDefined();
  });

  it('alarms on any event lost by a rule of our bus or the default bus: failed for good, or not put into its dead-letter queue', () => {
    const rules = prod.ofType('AWS::Events::Rule').filter(([, r]) => r.Properties.Targets);
    for (const metricName of ['FailedInvocations', 'InvocationsFailedToBeSentToDlq']) {
      // In alarms of at most 10 metrics each (CloudWatch's limit for metric math).
      const watching = alarms().filter((a) => metricsOf(a).some((m) => m.MetricName === metricName));
      const metrics = watching.flatMap((alarm) => metricsOf(alarm).filter((m) => m.Namespace === 'AWS/Events' && m.MetricName === metricName));
      expect(metrics, metricName).toHaveLength(rules.length);
      for (const alarm of watching) expect(metricsOf(alarm).length, metricName).toBeLessThanOrEqual(METRICS_PER_ALARM);
      const onOurBus = metrics.filter((m) => str(m.Dimensions).includes('"EventBusName"'));
      expect(onOurBus.length, metricName).toBe(rules.filter(([, r]) => r.Properties.EventBusName).length);
      for (const alarm of watching) expect(alarm, metricName).toMatchObject({ Threshold: 1 });
    }
  });

  it('alarms on any read or write throttle event of the table and both its indexes', () => {
    const [tableId] = prod.onlyOfType('AWS::DynamoDB::Table');
    const alarm = alarms().find((a) => metricsOf(a).some((m) => m.MetricName === 'ReadThrottleEvents'))!;
    const watched = metricsOf(alarm).map((m) => `${m.MetricName}:${str(m.Dimensions)}`);
    expect(watched).toHaveLength(6);
    for (const index of ['GSI1', 'GSI2']) expect(watched.filter((w) => w.includes(`"${index}"`))).toHaveLength(2);
    expect(watched.every((w) => w.includes(`"${tableId}"`))).toBe(true);
    expect(alarm).toMatchObject({ Threshold: 1 });
  });

  it("counts critical results left unacknowledged past the stage's time from the check's JSON log, and alarms on any", () => {
    const filters = prod.ofType('AWS::Logs::MetricFilter').filter(([, f]) => str(f.Properties.MetricTransformations).includes(CRITICAL_UNACKNOWLEDGED_METRIC));
    expect(filters).toHaveLength(1);
    expect(filters[0]![1].Properties).toMatchObject({
      LogGroupName: { Ref: functionOf('critical-check').logGroup },
      FilterPattern: `{ $.message = "${CRITICAL_UNACKNOWLEDGED_LOG}" }`,
      MetricTransformations: [expect.objectContaining({ MetricName: CRITICAL_UNACKNOWLEDGED_METRIC, MetricValue: '$.count' })],
    });
    const alarm = alarms().find((a) => a.MetricName === CRITICAL_UNACKNOWLEDGED_METRIC);
    expect(alarm).toMatchObject({ Threshold: 1, Statistic: 'Maximum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(String(alarm!.AlarmDescription)).toContain(`more than ${STAGE_FILES.prod.criticalAckMinutes} minutes`);
  });

  it("counts lab results that matched no order left waiting past the stage's time from the same check's log, and alarms on any", () => {
    const filters = prod.ofType('AWS::Logs::MetricFilter').filter(([, f]) => str(f.Properties.MetricTransformations).includes(UNMATCHED_WAITING_METRIC));
    expect(filters).toHaveLength(1);
    expect(filters[0]![1].Properties).toMatchObject({
      LogGroupName: { Ref: functionOf('critical-check').logGroup },
      FilterPattern: `{ $.message = "${UNMATCHED_WAITING_LOG}" }`,
      MetricTransformations: [expect.objectContaining({ MetricName: UNMATCHED_WAITING_METRIC, MetricValue: '$.count' })],
    });
    const alarm = alarms().find((a) => a.MetricName === UNMATCHED_WAITING_METRIC);
    expect(alarm).toMatchObject({ Threshold: 1, Statistic: 'Maximum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(String(alarm!.AlarmDescription)).toContain(`more than ${STAGE_FILES.prod.unmatchedWaitMinutes} minutes`);
  });
});

describe('the LabApi stack (prod): outputs', () => {
  it("outputs the API URL, the names of the table, bucket and bus, the lab queue, the ingest, webhook and patient email DLQs, the sender domain's DKIM records, the alarm topic and the key usage plan", () => {
    const outputs = (prod.template.toJSON() as { Outputs: Record<string, unknown> }).Outputs;
    expect(Object.keys(outputs).sort()).toEqual(
      [
        'AlarmTopicArn',
        'ApiUrl',
        'BucketName',
        'EmailDkimRecords',
        'EmailFeedbackDlqUrl',
        'EventBusName',
        'KeyUsagePlanId',
        'LabOrdersQueueUrl',
        'PatientMessagesDlqUrl',
        'ResultsIngestDlqUrl',
        'TableName',
        'WebhooksDlqUrl',
      ].sort(),
    );
  });
});

/** What shared/config.ts needs to load; nothing here talks to AWS. */
const FUNCTION_ENVIRONMENT = {
  PATH: process.env.PATH,
  TABLE_NAME: 'lab-table',
  DOCUMENTS_BUCKET: 'lab-documents',
  EVENT_BUS_NAME: 'lab-bus',
  AWS_REGION: 'eu-central-1',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

/** A handler bundled with the construct's settings (LAMBDA_BUNDLE, via the bench's builder), as `outdir/index.mjs`. */
const bundle = (handler: string, outdir: string) => buildBundle(join(REPO_ROOT, handler), outdir);

describe('a Lambda bundle', () => {
  it.each([
    ['getProfile', routes.getProfile.handler],
    ['results-ingest', 'functions/events/results-ingest.ts'],
    ['webhook-dispatch', 'functions/events/webhook-dispatch.ts'],
    ['webhook-retries', 'functions/events/webhook-retries.ts'],
    ['sendTestWebhook', routes.sendTestWebhook.handler],
  ])('of %s is an ES module under 1 MB that loads on Node.js and imports nothing but Node built-ins', async (name, handler) => {
    // Outside the repository's module resolution would also do; node_modules/.cache is git-ignored scratch space.
    await mkdir(join(REPO_ROOT, 'node_modules/.cache'), { recursive: true });
    const outdir = await mkdtemp(join(REPO_ROOT, 'node_modules/.cache/lambda-bundle-'));
    try {
      const { outfile, metafile } = await bundle(handler, outdir);
      const { size } = await stat(outfile);
      console.info(`${name} bundle: ${size} bytes (${(size / 1024).toFixed(1)} KiB)`);
      expect(size).toBeLessThan(1024 * 1024);

      const [, output] = Object.entries(metafile.outputs).find(([file]) => file.endsWith('index.mjs'))!;
      expect(output.exports).toContain('handler');
      const externals = output.imports.filter((i) => i.external).map((i) => i.path);
      expect(externals.filter((path) => !isBuiltin(path))).toEqual([]);

      // Loaded as the runtime loads it: catches CommonJS left in the ES module, or a module left out.
      const url = JSON.stringify(pathToFileURL(outfile).href);
      const load = `const m = await import(${url}); if (typeof m.handler !== 'function') process.exit(3);`;
      execFileSync(process.execPath, ['--input-type=module', '-e', load], {
        env: FUNCTION_ENVIRONMENT,
        stdio: 'pipe',
      });
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('of getOpenApiDocument carries docs/openapi.json and names the API the request reached, stage included, as its server', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'lambda-bundle-'));
    try {
      const { outfile } = await bundle(routes.getOpenApiDocument.handler, outdir);
      // As API Gateway invokes it on the prod stage: requestContext.path carries the stage, path does not.
      const invoke = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
        const headers = { Host: 'abc123.execute-api.eu-central-1.amazonaws.com', 'X-Forwarded-Proto': 'https' };
        const r = await handler({ httpMethod: 'GET', path: '/api/v1/openapi.json', headers,
          requestContext: { path: '/prod/api/v1/openapi.json', requestId: 'test' } }, { awsRequestId: 'test' });
        console.log('RESULT ' + JSON.stringify(r));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', invoke], { env: FUNCTION_ENVIRONMENT, encoding: 'utf8' });
      const answer = JSON.parse(
        output
          .split('\n')
          .find((line) => line.startsWith('RESULT '))!
          .slice(7),
      );
      expect(answer).toMatchObject({
        statusCode: 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
      });
      const document = JSON.parse(answer.body);
      const committed = JSON.parse(await readFile(join(REPO_ROOT, 'docs/openapi.json'), 'utf8'));
      expect(document).toEqual({ ...committed, servers: [{ url: 'https://abc123.execute-api.eu-central-1.amazonaws.com/prod' }] });
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('of getDocsAsset carries the swagger-ui-dist files it serves, and answers them from that copy', async () => {
    // Outside the repository, so that Node can find the package in the copy beside the bundle only.
    const outdir = await mkdtemp(join(tmpdir(), 'lambda-bundle-'));
    try {
      const { outfile } = await bundle(routes.getDocsAsset.handler, outdir);
      // What the construct's bundling copies beside the bundle (infra/bundle-all.ts).
      copyPackageFiles(PACKAGE_FILES.getDocsAsset!, outdir);
      const copied = (await readdir(join(outdir, 'node_modules/swagger-ui-dist'))).sort();
      expect(copied).toEqual(['LICENSE', 'NOTICE', 'package.json', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui.css']);

      // Invoked as API Gateway invokes it: the script plain, then gzipped; the answers' headers and digests.
      const invoke = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
        const { createHash } = await import('node:crypto');
        const { gunzipSync } = await import('node:zlib');
        const answer = async (file, headers) => {
          const r = await handler({ httpMethod: 'GET', path: '/docs/assets/' + file, headers, pathParameters: { file },
            requestContext: { path: '/prod/docs/assets/' + file, requestId: 'test' } }, { awsRequestId: 'test' });
          let bytes = Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8');
          if (r.headers['Content-Encoding'] === 'gzip') bytes = gunzipSync(bytes);
          return { status: r.statusCode, headers: r.headers, sha256: createHash('sha256').update(bytes).digest('hex') };
        };
        const plain = await answer('swagger-ui-bundle.js', {});
        const gzipped = await answer('swagger-ui-bundle.js', { 'accept-encoding': 'gzip, deflate, br' });
        console.log('RESULT ' + JSON.stringify({ plain, gzipped }));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', invoke], { env: FUNCTION_ENVIRONMENT, encoding: 'utf8' });
      const { plain, gzipped } = JSON.parse(
        output
          .split('\n')
          .find((line) => line.startsWith('RESULT '))!
          .slice(7),
      );
      const expected = createHash('sha256')
        .update(await readFile(join(REPO_ROOT, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js')))
        .digest('hex');
      expect(plain).toMatchObject({ status: 200, sha256: expected, headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
      expect(plain.headers['Content-Encoding']).toBeUndefined();
      expect(gzipped).toMatchObject({ status: 200, sha256: expected, headers: { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } });
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
