/**
 * The AWS SDK's default credential provider, as every bundle that calls AWS carries it (infra/bundling.ts
 * LAMBDA_BUNDLE alias of `@aws-sdk/credential-provider-node`): the function's environment, read once and
 * kept, as the full chain keeps what it found. Lambda puts the execution role's credentials there before
 * the handler loads (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, no expiry), and the full
 * chain reads them first too, so a deployed function signs with the same credentials.
 *
 * What the full chain adds is for other hosts: shared config files and SSO, web identity, a process,
 * container and instance metadata, with the STS and SSO clients they call (@aws-sdk/nested-clients): about
 * 135 KB of every such bundle, 40 % of a bare GetItem handler's, and a third of its cold import
 * (docs/proofs-and-performance.md "Bundles"). A host that gives credentials another way (SnapStart's
 * container endpoint, not offered for Node.js) would need the chain back. The local stack, the tests and the
 * operator CLIs are not bundled: they keep the full chain, so an operator's SSO profile still works.
 */
import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env';
import { memoize } from '@smithy/core/config';

/** Called once per client with its configuration; a failed read is not kept (the next request reads again). */
export const defaultProvider = (init?: FromEnvInit) => memoize(fromEnv(init));
