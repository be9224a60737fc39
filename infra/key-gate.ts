/**
 * The gate of keyed routes at API Gateway: a REQUEST authorizer (functions/auth/authorizer.ts) that answers
 * a missing, unknown, revoked or expired key, its answer cached per key, and a validator that answers a
 * request without the x-api-key header before anything runs.
 */
import { Duration, type Stack, Validations } from 'aws-cdk-lib';
import { IdentitySource, RequestAuthorizer, RequestValidator, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { API_KEY_HEADER } from '../shared/http/gateway-responses';
import { LabFunction } from './api-function';
import type { HipaaControls } from './hipaa-controls';
import type { StageName } from './settings';

/** How long API Gateway keeps the authorizer's answer for one x-api-key value (a revocation still ends within the routes' 60 s). */
export const KEY_AUTHORIZER_CACHE_SECONDS = 60;

export interface KeyGateProps {
  readonly stage: StageName;
  readonly table: Table;
  readonly bucket: Bucket;
  readonly bus: IEventBus;
  readonly hipaa?: HipaaControls;
}

export function keyGate(scope: Stack, api: RestApi, props: KeyGateProps) {
  const { stage, table, bucket, bus, hipaa } = props;
  // Bad keys are stopped at the gateway: the authorizer answers a missing, unknown, revoked or expired key
  // (functions/auth/authorizer.ts), its answer cached 60 s per key, so a flood of one bad key costs one
  // invocation and one GetItem a minute, and no route's function runs for any of them.
  const authorizerFunction = new LabFunction(scope, 'KeyAuthorizer', {
    stage,
    table,
    bucket,
    bus,
    hipaa,
    handlerFile: 'functions/auth/authorizer.ts',
    description: 'API key authorizer: answers missing, unknown, revoked and expired keys at the gateway',
    functionClass: 'authorizer',
  });
  const keyAuthorizer = new RequestAuthorizer(scope, 'ApiKeyAuthorizer', {
    authorizerName: 'api-key',
    handler: authorizerFunction.function,
    identitySources: [IdentitySource.header(API_KEY_HEADER)],
    resultsCacheTtl: Duration.seconds(KEY_AUTHORIZER_CACHE_SECONDS),
  });

  // A request without a key is answered 401 by API Gateway itself, before any Lambda runs.
  const requireKey = new RequestValidator(scope, 'RequireApiKeyHeader', {
    restApi: api,
    requestValidatorName: 'api-key-header',
    validateRequestParameters: true,
    validateRequestBody: false,
  });
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG2',
    reason:
      'Request parameters are validated (the x-api-key header of keyed routes, above). Bodies are validated by the ' +
      'route functions: the checks run in the order 401, 403, then 400, and API Gateway knows neither keys nor ' +
      'scopes, so a body check here would answer 400 to a caller who deserves 401.',
  });

  return { authorizerFunction, keyAuthorizer, requireKey };
}
