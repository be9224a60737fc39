/**
 * A key's place in API Gateway's usage plans, for the keys CLI against a deployed stage
 * (`--table … --usage-plan …`). The gateway counts each request of a key under its usage identifier
 * (shared/auth/usage-identifier.ts, answered by the authorizer) and refuses it with 429 once the key is
 * over its rate, its burst or its day, before any function runs. So every key the stage accepts has an
 * API Gateway API key holding that identifier, in one usage plan:
 *
 * - the stage's key plan (its id is the stack output KeyUsagePlanId; its limits the stage file's
 *   `keyLimits`), for a key without limits of its own;
 * - a plan of its own, named after the key id, on the same API stages, for a key created with
 *   `--rate-limit` (a usage plan's limits apply to each of its keys separately, so one plan per distinct
 *   limit would do as well; one per key keeps revocation simple and stays far below the 300 plans an
 *   account may hold per region).
 *
 * A revoked key keeps its API Gateway key (the authorizer never names it again; see removeKeyUsage). A
 * rotation keeps the key id, and so everything here.
 */
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanCommand,
  GetApiKeysCommand,
  GetUsagePlanCommand,
  GetUsagePlansCommand,
  UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import { usageIdentifierOf } from '../../shared/auth/usage-identifier';
import type { KeyLimits } from '../../shared/domain/rate-limits';

/** API Gateway in the usual AWS environment's region and credentials (AWS_ENDPOINT_URL_API_GATEWAY: elsewhere). */
export const apiGateway = () => new APIGatewayClient({});

export interface KeyUsage {
  keyId: string;
  /** The stage's key plan (stack output KeyUsagePlanId). */
  usagePlanId: string;
  /** The key's own limits; null: the stage's plan. */
  limits: KeyLimits | null;
}

/**
 * Gives a key its place with the gateway: its API Gateway key (found, or created with its usage
 * identifier), in the stage's plan or in a plan of its own. Safe to run again: a key already in a plan is
 * left as it is ('already'), and one whose API Gateway key exists without a plan (an earlier attempt that
 * failed halfway) is put into one.
 */
export async function registerKeyUsage(client: APIGatewayClient, { keyId, usagePlanId, limits }: KeyUsage): Promise<'registered' | 'already'> {
  const existing = await apiKeyOf(client, keyId);
  if (existing) {
    const { items: plans = [] } = await client.send(new GetUsagePlansCommand({ keyId: existing }));
    if (plans.length > 0) return 'already';
  }
  const apiKeyId =
    existing ??
    (
      await client.send(
        new CreateApiKeyCommand({
          name: keyId,
          description: `Usage identifier of lab API key ${keyId}: counts its requests, is no credential`,
          enabled: true,
          value: usageIdentifierOf(keyId),
        }),
      )
    ).id!;
  let planId = usagePlanId;
  if (limits) {
    // The same API stages as the stage's plan: the key's plan applies where the stage's would.
    const stagePlan = await client.send(new GetUsagePlanCommand({ usagePlanId }));
    const own = await client.send(
      new CreateUsagePlanCommand({
        name: keyId,
        description: `Limits of lab API key ${keyId} only`,
        apiStages: stagePlan.apiStages,
        throttle: { rateLimit: limits.rate_limit, burstLimit: limits.burst },
        ...(limits.daily_quota === null ? {} : { quota: { limit: limits.daily_quota, period: 'DAY' as const } }),
      }),
    );
    planId = own.id!;
  }
  await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: planId, keyId: apiKeyId, keyType: 'API_KEY' }));
  return 'registered';
}

/** The id of the API Gateway key named after this key id, if there is one. */
async function apiKeyOf(client: APIGatewayClient, keyId: string): Promise<string | undefined> {
  const { items = [] } = await client.send(new GetApiKeysCommand({ nameQuery: keyId, includeValues: false }));
  return items.find((item) => item.name === keyId)?.id;
}

/**
 * Removes what a failed `create` left with the gateway: the key's API Gateway key and the plan of its own,
 * if it has one (a plan named after the key id: never the stage's). Nothing there: nothing to do. A revoked
 * key keeps its API Gateway key: the authorizer names it no more, and removing it at once would answer the
 * key's cached allowance (up to 60 s) 403 "not enabled" instead of 401 "revoked".
 */
export async function removeKeyUsage(client: APIGatewayClient, keyId: string): Promise<void> {
  const { items = [] } = await client.send(new GetApiKeysCommand({ nameQuery: keyId, includeValues: false }));
  for (const apiKey of items.filter((item) => item.name === keyId)) {
    const { items: plans = [] } = await client.send(new GetUsagePlansCommand({ keyId: apiKey.id }));
    await client.send(new DeleteApiKeyCommand({ apiKey: apiKey.id }));
    for (const plan of plans.filter((p) => p.name === keyId)) {
      // A plan still attached to an API stage cannot be deleted: detach it first.
      const patchOperations = (plan.apiStages ?? []).map((stage) => ({ op: 'remove' as const, path: '/apiStages', value: `${stage.apiId}:${stage.stage}` }));
      if (patchOperations.length > 0) await client.send(new UpdateUsagePlanCommand({ usagePlanId: plan.id, patchOperations }));
      await client.send(new DeleteUsagePlanCommand({ usagePlanId: plan.id }));
    }
  }
}
