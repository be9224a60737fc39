/**
 * The events a webhook subscription may ask for: the domain events a client app acts on, by their
 * EventBridge detail-types. Each is seen through the tenant it is about (its profile or location group)
 * and through the scopes that read its resource: a key receives an event only where it could GET the
 * resource itself.
 */
import { type AccessContext, canSeeLocationGroup, canSeeProfileGroup, hasAnyScope } from '../auth/access';
import type { Scope } from '../domain/scopes';
import { APPOINTMENT_RESCHEDULED } from '../events/appointment-rescheduled';
import { CRITICAL_RESULT_REPORTED } from '../events/critical-result-reported';
import { LAB_ORDER_STATUS_EVENTS } from '../events/lab-order-status';
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
  APPOINTMENT_RESCHEDULED,
  HOME_KIT_ORDER_STATUS_CHANGED,
  SHIPMENT_STATUS_CHANGED,
  LAB_RESULTS_AVAILABLE,
  LAB_RESULTS_UPDATED,
  LAB_RESULTS_CORRECTED,
  CRITICAL_RESULT_REPORTED,
  SPECIMEN_REJECTED,
  ...LAB_ORDER_STATUS_EVENTS,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What POST /webhooks/{id}/test sends, whatever the subscription's event types. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const isWebhookEventType = (type: string): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/**
 * The kinds of resource an event is about, each with the GET route whose scopes receive it and the tenant
 * that route checks. The event log files each event under its tenant and kind (shared/store/event-log.ts), so
 * a key reads the partitions of its groups and kinds, and only what it could receive by webhook. A lab
 * order's status (issue #51) is about a draw's appointment or a home kit's, as its detail says
 * (home_kit_order_id): it is listed under both kinds and received with the scopes of the one it names.
 */
const RESOURCE_KINDS = {
  appointment: { tenant: 'profile', route: getAppointment, types: [APPOINTMENT_STATUS_CHANGED, APPOINTMENT_RESCHEDULED, ...LAB_ORDER_STATUS_EVENTS] },
  'home-kit-order': { tenant: 'profile', route: getHomeKitOrder, types: [HOME_KIT_ORDER_STATUS_CHANGED, ...LAB_ORDER_STATUS_EVENTS] },
  shipment: { tenant: 'location', route: getShipment, types: [SHIPMENT_STATUS_CHANGED] },
  results: {
    tenant: 'profile',
    route: getAppointmentResults,
    types: [LAB_RESULTS_AVAILABLE, LAB_RESULTS_UPDATED, LAB_RESULTS_CORRECTED, CRITICAL_RESULT_REPORTED, SPECIMEN_REJECTED],
  },
} as const satisfies Record<string, { tenant: 'profile' | 'location'; route: { scopes: readonly Scope[] }; types: readonly WebhookEventType[] }>;
type ResourceKind = keyof typeof RESOURCE_KINDS;
const KINDS = Object.keys(RESOURCE_KINDS) as ResourceKind[];

const kindsOf = (type: WebhookEventType) => KINDS.filter((kind) => (RESOURCE_KINDS[kind].types as readonly string[]).includes(type));

/** The kind an event is about: its type's one kind, or (a lab order's status) the one its detail names. */
function kindOf(type: WebhookEventType, detail: Record<string, unknown>): ResourceKind {
  const kinds = kindsOf(type);
  if (kinds.length === 1) return kinds[0]!;
  return typeof detail.home_kit_order_id === 'string' ? 'home-kit-order' : 'appointment';
}

/** The scopes a key must hold one of to subscribe to `type`: those of any kind it can be about. */
export const scopesToReceive = (type: WebhookEventType): readonly Scope[] => [...new Set(kindsOf(type).flatMap((kind) => RESOURCE_KINDS[kind].route.scopes))];

/** Whether a key may receive this event now: it reads the kind of resource the event is about, and sees its tenant. */
export function mayReceive(access: AccessContext, type: WebhookEventType, detail: Record<string, unknown>): boolean {
  if (!hasAnyScope(access, RESOURCE_KINDS[kindOf(type, detail)].route.scopes)) return false;
  if (typeof detail.profile_group_slug === 'string') return canSeeProfileGroup(access, detail.profile_group_slug);
  if (typeof detail.location_group_slug === 'string') return canSeeLocationGroup(access, detail.location_group_slug);
  // An event that names no tenant reaches nobody.
  return false;
}

const tenantName = (kind: 'profile' | 'location', group: string) => `${kind === 'profile' ? 'PG' : 'LG'}#${group}`;

/** Where the event log files an event: its tenant and its resource kind; undefined for one that names no tenant. */
export function eventLogPartitionOf(type: WebhookEventType, detail: Record<string, unknown>): { tenant: string; kind: ResourceKind } | undefined {
  const kind = kindOf(type, detail);
  const group = RESOURCE_KINDS[kind].tenant === 'profile' ? detail.profile_group_slug : detail.location_group_slug;
  return typeof group === 'string' ? { tenant: tenantName(RESOURCE_KINDS[kind].tenant, group), kind } : undefined;
}

/** The partitions of the event log a key may read (of `type` only, when given): its groups × the kinds its scopes receive. */
export function eventLogPartitionsOf(access: AccessContext, type?: WebhookEventType): { tenant: string; kind: ResourceKind }[] {
  return KINDS.flatMap((kind) => {
    const { tenant, types, route } = RESOURCE_KINDS[kind];
    const wanted = type === undefined || (types as readonly string[]).includes(type);
    if (!wanted || !hasAnyScope(access, route.scopes)) return [];
    const groups = tenant === 'profile' ? access.profileGroups : access.locationGroups;
    return [...groups].map((group) => ({ tenant: tenantName(tenant, group), kind }));
  });
}

/** Whether a key may receive some event type: what GET /events needs. */
export const receivesAnyEvent = (access: AccessContext) => WEBHOOK_EVENT_TYPES.some((type) => hasAnyScope(access, scopesToReceive(type)));
