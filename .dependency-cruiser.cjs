/**
 * Layer rules for the API (dependency-cruiser). Run: npm run lint:deps
 *
 * Layout: functions/<resource>/<action>.ts are the Lambda handlers (the edge); shared/ is the code they
 * run (http/, auth/, domain/, schemas/, contract/, store/, events/, documents/, webhooks/, fhir/, hl7/, report/, usecases/, errors.ts);
 * infra/ is CDK and local tooling; test/ the tests.
 *
 * Type-only imports (`import type …`) count: tsPreCompilationDeps is on, so a cycle or a forbidden
 * edge made only of types is reported too (such edges carry the dependency type 'type-only').
 */
/* global module */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-shared-to-functions-or-infra',
      comment: 'shared/ is what the handlers run: it must not know about handlers (functions/) or deployment/tooling code (infra/).',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra)/' },
    },
    {
      name: 'no-dev-dependencies-deployed',
      comment:
        'What the functions bundle (functions/, shared/) never imports a devDependency: those are for tests, the ' +
        "local stack and the CDK app (temporal-polyfill and standardwebhooks are the tests' oracles, not ours).",
      severity: 'error',
      from: { path: '^(functions|shared)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-is-pure',
      comment:
        'shared/domain/ is pure business logic: it may import only shared/domain/, shared/errors(.ts|/) and valibot. ' +
        'No node builtins (node:fs, node:net, node:http, node:crypto, …), no @aws-sdk/*, no other shared/ folder.',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: {
        pathNot: ['^shared/domain/', '^shared/errors(\\.ts$|/)', '^node_modules/valibot/'],
      },
    },
    {
      name: 'no-http-below-the-edge',
      comment:
        'HTTP is the edge: store, domain, auth, usecases, events and documents must not import shared/http/ ' +
        '(throw the errors of shared/errors.ts instead; shared/http maps them to responses).',
      severity: 'error',
      from: { path: '^shared/(store|domain|auth|usecases|events|documents|webhooks|fhir|hl7|report)/' },
      to: { path: '^shared/http/' },
    },
    {
      name: 'usecases-above-the-store',
      comment:
        'A use case (shared/usecases/) combines store, domain, auth and events; none of those may call back up into one ' + '(only handlers and tooling do).',
      severity: 'error',
      from: { path: '^shared/(store|domain|auth|events|documents|schemas|contract|webhooks|fhir|hl7|report)/' },
      to: { path: '^shared/usecases/' },
    },
    {
      name: 'events-below-the-store',
      comment:
        'shared/events builds and publishes events; the store writes them into transactions (outbox, transitions), so it may ' +
        'import events, never the other way round. What needs both (publishing after a commit, the outbox relay) is a use case.',
      severity: 'error',
      from: { path: '^shared/events/' },
      to: { path: '^shared/store/' },
    },
    {
      name: 'store-below-auth',
      comment:
        'shared/auth decides who may do what and reads its keys through the store; the store knows no access rules. ' +
        'What both need (the scope names) is domain vocabulary: shared/domain/scopes.ts.',
      severity: 'error',
      from: { path: '^shared/store/' },
      to: { path: '^shared/auth/' },
    },
    {
      name: 'schemas-below-the-contract',
      comment: 'shared/contract documents what routes answer with the response schemas of shared/schemas; a schema never imports the contract.',
      severity: 'error',
      from: { path: '^shared/schemas/' },
      to: { path: '^shared/contract/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'This module imports something that cannot be resolved on disk: a missing npm package (add it to package.json) or a wrong path.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^cdk\\.out/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Parse the TypeScript sources themselves, so `import type` edges are kept (dependency type 'type-only').
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
