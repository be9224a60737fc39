/**
 * The answers API Gateway gives itself (no function runs for them), in the service's {"error": …} shape
 * and with fixed CORS headers (infra/cors.ts): an unknown path, a missing or refused key, a failed key check,
 * throttling, a key's quota or usage plan, the WAF. Each is the answer the local server gives too
 * (shared/http/gateway-responses.ts). Also the key usage plan (infra/key-usage-plan.ts), whose refusals these are.
 */
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  type GatewayAnswer,
  keyCheckUnavailable,
  keyWithoutUsagePlan,
  missingKey,
  quotaExceeded,
  stageThrottled,
  unknownPath,
} from '../shared/http/gateway-responses';
import { gatewayResponseCors, gatewayResponseHeaders } from './cors';
import { keyUsagePlan } from './key-usage-plan';
import type { StackSettings } from './settings';
import { wafBlocked } from './waf';

export function gatewayAnswers(api: RestApi, cors: readonly string[], settings: Pick<StackSettings, 'keyLimits' | 'wafRequestsPerIp'>): void {
  // Errors API Gateway answers itself get the service's {"error": …} shape too (and fixed CORS headers: infra/cors.ts).
  const gatewayCors = gatewayResponseCors(cors);
  /** A gateway response that gives one of the answers the local server gives too (shared/http/gateway-responses.ts). */
  const answerWith = (id: string, type: ResponseType, answer: GatewayAnswer) =>
    api.addGatewayResponse(id, {
      type,
      statusCode: String(answer.statusCode),
      templates: { 'application/json': JSON.stringify(answer.body) },
      responseHeaders: { ...gatewayCors, ...gatewayResponseHeaders(answer.headers) },
    });
  // What API Gateway reports for a path with no method, as no route uses IAM auth.
  answerWith('UnknownPath', ResponseType.MISSING_AUTHENTICATION_TOKEN, unknownPath);
  // The only required request parameter of any method is the x-api-key header.
  answerWith('MissingApiKey', ResponseType.BAD_REQUEST_PARAMETERS, missingKey);
  // The authorizer's answers: no identity source (no or an empty header), a key it denied (the route's
  // message, from its context), a lookup that failed (the table could not answer: retry).
  answerWith('AuthorizerMissingKey', ResponseType.UNAUTHORIZED, missingKey);
  api.addGatewayResponse('AuthorizerDeniedKey', {
    type: ResponseType.ACCESS_DENIED,
    statusCode: '401',
    templates: { 'application/json': '{"error":"$context.authorizer.message"}' },
    responseHeaders: gatewayCors,
  });
  // An authorizer that throws or times out is reported as a configuration error, one that answers
  // nonsense as a failure: either way the key could not be checked.
  answerWith('AuthorizerFailed', ResponseType.AUTHORIZER_FAILURE, keyCheckUnavailable);
  answerWith('AuthorizerError', ResponseType.AUTHORIZER_CONFIGURATION_ERROR, keyCheckUnavailable);
  answerWith('StageThrottled', ResponseType.THROTTLED, stageThrottled);
  // A key's usage plan: its day used up, or no plan holds it (issued without --usage-plan).
  keyUsagePlan(api, settings.keyLimits);
  answerWith('KeyQuotaExceeded', ResponseType.QUOTA_EXCEEDED, quotaExceeded);
  answerWith('KeyWithoutUsagePlan', ResponseType.INVALID_API_KEY, keyWithoutUsagePlan);
  // A request the WAF's managed rules blocked (its per-IP rate rule answers 429 itself: infra/waf.ts).
  if (settings.wafRequestsPerIp !== undefined) answerWith('WafBlocked', ResponseType.WAF_FILTERED, wafBlocked);
  api.addGatewayResponse('Default4xx', {
    type: ResponseType.DEFAULT_4XX,
    // messageString is already a quoted JSON string.
    templates: { 'application/json': '{"error":$context.error.messageString}' },
    responseHeaders: gatewayCors,
  });
  api.addGatewayResponse('Default5xx', {
    type: ResponseType.DEFAULT_5XX,
    templates: { 'application/json': JSON.stringify({ error: 'Internal server error' }) },
    responseHeaders: gatewayCors,
  });
}
