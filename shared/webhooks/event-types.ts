/**
 * The events a webhook subscription may ask for: the domain events a client app acts on, by their
 * EventBridge detail-types. Each is seen through the tenant it is about (its profile or location group)
 * and through the scopes that read its resource: a key receives an event only where it could GET the
 * resource itself.
 */
import { type AccessContext, canSeeLocationGroup, canSeeProfileGroup, hasAnyScope } from '../auth/access';
import { CRITICAL_RESULT_REPORTED } from '../events/critical-result-reported';
import { LAB_RESULTS_AVAILABLE } from '../events/lab-results-available';
import { SPECIMEN_REJECTED } from '../events/specimen-rejected';
import { LAB_RESULTS_CORRECTED, LAB_RESULTS_UPDATED } from '../events/lab-results-updated';
import { APPOINTMENT_STATUS_CHANGED, HOME_KIT_ORDER_STATUS_CHANGED, SHIPMENT_STATUS_CHANGED } from '../events/status-changed';
import { getAppointment } from '../routes/appointments';
import { getHomeKitOrder } from '../routes/home-kit-orders';
import { getAppointmentResults } from '../routes/results';
import { getShipment } from '../routes/shipments';

export const WEBHOOK_EVENT_TYPES = [
  APPOINTMENT_STATUS_CHANGED,
  HOME_KIT_ORDER_STATUS_CHANGED,
  SHIPMENT_STATUS_CHANGED,
  LAB_RESULTS_AVAILABLE,
  LAB_RESULTS_UPDATED,
  LAB_RESULTS_CORRECTED,
  CRITICAL_RESULT_REPORTED,
  SPECIMEN_REJECTED,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What POST /webhooks/{id}/test sends, whatever the subscription's event types. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The route whose scopes a key needs to receive an event type: the GET of the resource it announces. */
const READ_ROUTE = {
  [APPOINTMENT_STATUS_CHANGED]: getAppointment,
  [HOME_KIT_ORDER_STATUS_CHANGED]: getHomeKitOrder,
  [SHIPMENT_STATUS_CHANGED]: getShipment,
  [LAB_RESULTS_AVAILABLE]: getAppointmentResults,
  [LAB_RESULTS_UPDATED]: getAppointmentResults,
  [LAB_RESULTS_CORRECTED]: getAppointmentResults,
  [CRITICAL_RESULT_REPORTED]: getAppointmentResults,
  [SPECIMEN_REJECTED]: getAppointmentResults,
} as const satisfies Record<WebhookEventType, { scopes: readonly string[] }>;

export const isWebhookEventType = (type: string): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/** The scopes a key must hold one of to subscribe to `type`. */
export const scopesToReceive = (type: WebhookEventType) => READ_ROUTE[type].scopes;

/** Whether a key may receive this event now: it reads the resource's kind and sees its tenant. */
export function mayReceive(access: AccessContext, type: WebhookEventType, detail: Record<string, unknown>): boolean {
  if (!hasAnyScope(access, scopesToReceive(type))) return false;
  if (typeof detail.profile_group_slug === 'string') return canSeeProfileGroup(access, detail.profile_group_slug);
  if (typeof detail.location_group_slug === 'string') return canSeeLocationGroup(access, detail.location_group_slug);
  // An event that names no tenant reaches nobody.
  return false;
}

/**
 * The event log's partitions (shared/store/event-log.ts): per tenant, one per kind of resource, the kind
 * being the GET route whose scopes receive it, and the tenant the group that route checks. A key reads the
 * partitions of its groups and kinds, and so only what it could receive by webhook.
 */
const RESOURCE_KINDS = {
  appointment: { tenant: 'profile', types: [APPOINTMENT_STATUS_CHANGED] },
  'home-kit-order': { tenant: 'profile', types: [HOME_KIT_ORDER_STATUS_CHANGED] },
  shipment: { tenant: 'location', types: [SHIPMENT_STATUS_CHANGED] },
  results: {
    tenant: 'profile',
    types: [LAB_RESULTS_AVAILABLE, LAB_RESULTS_UPDATED, LAB_RESULTS_CORRECTED, CRITICAL_RESULT_REPORTED, SPECIMEN_REJECTED],
  },
} as const satisfies Record<string, { tenant: 'profile' | 'location'; types: readonly WebhookEventType[] }>;
type ResourceKind = keyof typeof RESOURCE_KINDS;

const tenantName = (kind: 'profile' | 'location', group: string) => `${kind === 'profile' ? 'PG' : 'LG'}#${group}`;

/** Where the event log files an event: its tenant and its resource kind; undefined for one that names no tenant. */
export function eventLogPartitionOf(type: WebhookEventType, detail: Record<string, unknown>): { tenant: string; kind: ResourceKind } | undefined {
  const kind = (Object.keys(RESOURCE_KINDS) as ResourceKind[]).find((name) => (RESOURCE_KINDS[name].types as readonly string[]).includes(type)) as ResourceKind;
  const group = RESOURCE_KINDS[kind].tenant === 'profile' ? detail.profile_group_slug : detail.location_group_slug;
  return typeof group === 'string' ? { tenant: tenantName(RESOURCE_KINDS[kind].tenant, group), kind } : undefined;
}

/** The partitions of the event log a key may read (of `type` only, when given): its groups × the kinds its scopes receive. */
export function eventLogPartitionsOf(access: AccessContext, type?: WebhookEventType): { tenant: string; kind: ResourceKind }[] {
  return (Object.keys(RESOURCE_KINDS) as ResourceKind[]).flatMap((kind) => {
    const { tenant, types } = RESOURCE_KINDS[kind];
    const wanted = type === undefined || (types as readonly string[]).includes(type);
    if (!wanted || !hasAnyScope(access, scopesToReceive(types[0]))) return [];
    const groups = tenant === 'profile' ? access.profileGroups : access.locationGroups;
    return [...groups].map((group) => ({ tenant: tenantName(tenant, group), kind }));
  });
}

/** Whether a key may receive some event type: what GET /events needs. */
export const receivesAnyEvent = (access: AccessContext) => WEBHOOK_EVENT_TYPES.some((type) => hasAnyScope(access, scopesToReceive(type)));
