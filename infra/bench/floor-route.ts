/**
 * The route the bench's local server (bench/server-process.ts) adds for the floor handler of
 * GET /api/v1/profiles/{id} (bench/floor-handlers.ts): the route's path under a prefix of its own, no key.
 * A module of its own because the handler's loads the app's configuration, which the bench sets later.
 */
export const FLOOR_ROUTE = {
  name: 'benchFloorGetProfile',
  route: { name: 'benchFloorGetProfile', method: 'GET', path: '/bench/floor/profiles/{id}', handler: 'infra/bench/floor-handlers.ts', scopes: [] },
} as const;
