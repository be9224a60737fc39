/**
 * A key's usage identifier: the value of the API Gateway API key that counts its requests against its
 * usage plan (its rate, burst and daily quota; docs/api-keys.md "Rate limits"). The authorizer answers it as
 * `usageIdentifierKey` for every key it allows (the API's key source is AUTHORIZER), and the keys CLI
 * registers it with the stage's usage plan when it issues the key (infra/cli/key-usage-plans.ts).
 *
 * Derived from the key id, never from the secret: it is not a credential. The gateway never reads it from a
 * request (with the AUTHORIZER key source an x-api-key header is not matched against API Gateway's keys),
 * it only names whose counter a request spends. A rotation keeps the key id, and so its counter and plan.
 */
export const usageIdentifierOf = (keyId: string): string => `lab-usage-${keyId}`;
