/**
 * The AWS SDK's default credential provider, as every bundle carries it (infra/bundling.ts LAMBDA_BUNDLE
 * alias of `@aws-sdk/credential-provider-node`): the function's environment. Lambda puts the execution
 * role's credentials there before the handler loads (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN), and the SDK's full chain reads them first too, so a deployed function behaves the same.
 *
 * What the full chain adds is for other hosts: shared config files and SSO, web identity, a process,
 * container and instance metadata, with the STS and SSO clients they call (@aws-sdk/nested-clients).
 * 135 KB of every bundle, 40 % of a bare GetItem handler's, and about a third of its cold import
 * (docs/proofs-and-performance.md). The local stack, the tests and the operator CLIs are not bundled:
 * they keep the full chain, so an operator's SSO profile still works.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
