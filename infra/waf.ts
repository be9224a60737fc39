/**
 * The optional web application firewall in front of the API stage (stage file `wafRequestsPerIp`), for a stage the
 * public internet reaches beyond its known clients:
 *
 * - AWS's managed common rule set (AWSManagedRulesCommonRuleSet: the OWASP-style probes, oversized
 *   headers, path traversal, …), except two rules that only count: the 8 KB body-size rule (our JSON stage
 *   answers an oversized body itself, 413 with a message that says the limit) and the missing User-Agent
 *   rule (server-to-server clients, .NET's HttpClient among them, send none by default).
 * - A rate-based rule per source IP: more than `requestsPerIpPer5Minutes` from one address in five
 *   minutes is answered 429 `{"error": …}` with Retry-After until the address slows down. It caps what no
 *   key limit can: requests without a valid key (answered by the authorizer, but each one still invoked it
 *   once per 60 s and key), from one address. Set it above what one key may send (keyLimits: 25/s is 7,500
 *   in 5 minutes), or a partner behind one address meets it before its own limits. Its answer is WAF's, not
 *   API Gateway's: it carries no CORS headers, so a browser app sees a network error.
 *
 * What it costs: $5 a month for the web ACL, $1 per rule (two), $0.60 per million requests; AWS's managed
 * rule set itself adds nothing. Blocked requests never reach the authorizer or a function.
 */
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { GatewayAnswer } from '../shared/http/gateway-responses';

export interface WafProps {
  /** The API stage it guards. */
  readonly stage: Stage;
  readonly requestsPerIpPer5Minutes: number;
  /** Names the metrics of the web ACL and its rules in CloudWatch (AWS/WAFV2). */
  readonly metricPrefix: string;
}

/** How long a blocked address is asked to wait: WAF re-evaluates its rate every 30 s or so, over the window. */
export const WAF_RETRY_AFTER_SECONDS = 60;
export const WAF_RATE_LIMITED_MESSAGE = 'Too many requests from this address; slow down';

/** What API Gateway answers for a request the managed rules blocked (its WAF_FILTERED gateway response). */
export const wafBlocked: GatewayAnswer = { statusCode: 403, headers: {}, body: { error: 'Request blocked by the web application firewall' } };

export class Waf extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: WafProps) {
    super(scope, id);
    const visibility = (name: string) => ({ sampledRequestsEnabled: true, cloudWatchMetricsEnabled: true, metricName: `${props.metricPrefix}-${name}` });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      customResponseBodies: {
        'rate-limited': { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: WAF_RATE_LIMITED_MESSAGE }) },
      },
      rules: [
        {
          name: 'aws-common-rule-set',
          priority: 0,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: [
                { name: 'SizeRestrictions_BODY', actionToUse: { count: {} } },
                { name: 'NoUserAgent_HEADER', actionToUse: { count: {} } },
              ],
            },
          },
          visibilityConfig: visibility('common-rule-set'),
        },
        {
          name: 'requests-per-ip',
          priority: 1,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'rate-limited',
                responseHeaders: [{ name: 'Retry-After', value: String(WAF_RETRY_AFTER_SECONDS) }],
              },
            },
          },
          statement: { rateBasedStatement: { limit: props.requestsPerIpPer5Minutes, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          visibilityConfig: visibility('requests-per-ip'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
