/** Scope names exactly as the spec spells them (home_kit_orders_manage is lower case there too), plus ours. */
export const SCOPES = [
  'CREATE_USER',
  'PROFILES_VIEW',
  'IMPERSONATE',
  'LOCATIONS_VIEW',
  'TEST_SESSIONS_VIEW',
  'TEST_SESSIONS_SCHEDULE',
  'TEST_SESSIONS_OPERATE',
  'TEST_SESSIONS_MANAGE',
  'SHIPMENTS_MANAGE',
  'RESULTS_VIEW',
  'home_kit_orders_manage',
  // Not in the spec: the courier integration's provider status updates (docs/endpoints.md "Shipments").
  'SHIPMENTS_TRACK',
  // Not in the spec: a client's own webhook subscriptions (docs/events-and-webhooks.md "Webhooks").
  'WEBHOOKS_MANAGE',
  // Not in the spec: privacy (docs/privacy.md "Privacy"): erasing a person's identifiers, and reading who read their data.
  'PROFILES_ERASE',
  'AUDIT_VIEW',
  // Not in the spec: a location's schedule (hours, slots, capacity, closures), set by the clinic (docs/scheduling.md "Scheduling").
  'LOCATIONS_MANAGE',
  // Not in the spec: the lab's results that matched no order (issue #51), for the service's own lab-operations staff
  // (docs/hl7.md "Results that match no order"); the keys CLI issues it only on a key holding every profile group.
  'LAB_RESULTS_MATCH',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
