/**
 * Per-key limits and the optional WAF in the template: every keyed method counted by the usage plan of
 * the key the authorizer allowed, the stage's key plan from the stage file, the gateway's own 429 and 403
 * answers, and the web ACL when a stage asks for one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGE_FILES } from '../../infra/settings';
import { WAF_RATE_LIMITED_MESSAGE, WAF_RETRY_AFTER_SECONDS } from '../../infra/waf';
import { routeEntries } from '../../shared/routes';
import { labApiStack, str, Synthesized, testApp } from './synth';

let prod: Synthesized;
let withWaf: Synthesized;

beforeAll(() => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
  withWaf = new Synthesized(labApiStack(testApp({ wafRequestsPerIp: '3000' }), 'prod'));
});

const gatewayResponse = (stack: Synthesized, type: string) =>
  stack.ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type)?.[1].Properties;

describe('per-key limits at the gateway', () => {
  it("count requests under the key the authorizer answers (the API's key source is AUTHORIZER)", () => {
    expect(prod.onlyOfType('AWS::ApiGateway::RestApi')[1].Properties.ApiKeySourceType).toBe('AUTHORIZER');
  });

  it('require an API key on every keyed method and on no public one', () => {
    const methods = prod.apiMethods();
    for (const [name, route] of routeEntries) {
      const { properties } = methods.find((m) => m.method === route.method && m.path === route.path)!;
      expect(properties.ApiKeyRequired ?? false, name).toBe(route.scopes.length > 0);
    }
  });

  it('require none on the mock methods (405, CORS preflight): they answer without a key', () => {
    const mocks = prod.apiMethods().filter((m) => m.method === 'ANY');
    expect(mocks.length).toBeGreaterThan(0);
    for (const mock of mocks) expect(mock.properties.ApiKeyRequired ?? false, mock.path).toBe(false);
  });

  it("hold every key without limits of its own to the stage file's keyLimits, per key, on this stage", () => {
    const [, plan] = prod.onlyOfType('AWS::ApiGateway::UsagePlan');
    const { keyLimits } = STAGE_FILES.prod;
    expect(plan.Properties).toMatchObject({
      UsagePlanName: 'LabApi-prod keys',
      Throttle: { RateLimit: keyLimits.rateLimit, BurstLimit: keyLimits.burstLimit },
      Quota: { Limit: keyLimits.dailyQuota, Period: 'DAY' },
    });
    const [apiId] = prod.onlyOfType('AWS::ApiGateway::RestApi');
    const [stageId] = prod.onlyOfType('AWS::ApiGateway::Stage');
    expect(plan.Properties.ApiStages).toEqual([expect.objectContaining({ ApiId: { Ref: apiId }, Stage: { Ref: stageId } })]);
  });

  it('name the key plan in an output, for the keys CLI', () => {
    const [planId] = prod.onlyOfType('AWS::ApiGateway::UsagePlan');
    expect(prod.template.toJSON().Outputs.KeyUsagePlanId.Value).toEqual({ Ref: planId });
  });

  it('answer a key whose daily quota is used up 429 with the service error shape, saying when it resets', () => {
    const response = gatewayResponse(prod, 'QUOTA_EXCEEDED')!;
    expect(response.StatusCode).toBe('429');
    expect(JSON.parse((response.ResponseTemplates as Record<string, string>)['application/json']!)).toEqual({
      error: "This API key's daily request quota is used up; it resets at 00:00 UTC",
    });
  });

  it('answer a key no usage plan holds 403, telling the client to ask the operator', () => {
    const response = gatewayResponse(prod, 'INVALID_API_KEY')!;
    expect(response.StatusCode).toBe('403');
    expect(str(response.ResponseTemplates)).toContain('ask the API operator to register it with a usage plan');
  });
});

describe('the optional web application firewall', () => {
  it('is off in both stage files, and then the stack has no web ACL', () => {
    expect(STAGE_FILES.prod.wafRequestsPerIp).toBeUndefined();
    expect(STAGE_FILES.dev.wafRequestsPerIp).toBeUndefined();
    expect(prod.ofType('AWS::WAFv2::WebACL')).toEqual([]);
  });

  it("runs AWS's managed common rule set, its body-size and missing-User-Agent rules only counting", () => {
    const [, acl] = withWaf.onlyOfType('AWS::WAFv2::WebACL');
    const rules = acl.Properties.Rules as { Name: string; Statement: Record<string, unknown>; OverrideAction?: unknown }[];
    const common = rules.find((rule) => rule.Name === 'aws-common-rule-set')!;
    expect(common.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
      RuleActionOverrides: [
        { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
        { Name: 'NoUserAgent_HEADER', ActionToUse: { Count: {} } },
      ],
    });
    expect(common.OverrideAction).toEqual({ None: {} });
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
  });

  it('answers more than the stage file says from one IP in 5 minutes 429, the service error shape and Retry-After', () => {
    const [, acl] = withWaf.onlyOfType('AWS::WAFv2::WebACL');
    const rules = acl.Properties.Rules as { Name: string; Statement: Record<string, unknown>; Action?: { Block: { CustomResponse: unknown } } }[];
    const perIp = rules.find((rule) => rule.Name === 'requests-per-ip')!;
    expect(perIp.Statement.RateBasedStatement).toEqual({ Limit: 3000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    expect(perIp.Action!.Block.CustomResponse).toEqual({
      ResponseCode: 429,
      CustomResponseBodyKey: 'rate-limited',
      ResponseHeaders: [{ Name: 'Retry-After', Value: String(WAF_RETRY_AFTER_SECONDS) }],
    });
    expect(acl.Properties.CustomResponseBodies).toEqual({
      'rate-limited': { ContentType: 'APPLICATION_JSON', Content: JSON.stringify({ error: WAF_RATE_LIMITED_MESSAGE }) },
    });
  });

  it('guards the API stage (by reference, so it is associated once the stage exists)', () => {
    const [, association] = withWaf.onlyOfType('AWS::WAFv2::WebACLAssociation');
    const [stageId] = withWaf.onlyOfType('AWS::ApiGateway::Stage');
    const [aclId] = withWaf.onlyOfType('AWS::WAFv2::WebACL');
    expect(str(association.Properties.ResourceArn)).toContain(`"/stages/",{"Ref":"${stageId}"}`);
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  it('answers a request its managed rules blocked 403 with the service error shape', () => {
    const response = gatewayResponse(withWaf, 'WAF_FILTERED')!;
    expect(response.StatusCode).toBe('403');
    expect(str(response.ResponseTemplates)).toContain('Request blocked by the web application firewall');
    expect(gatewayResponse(prod, 'WAF_FILTERED')).toBeUndefined();
  });
});
