/**
 * The home kit order representation, and the two shapes of a delivery address, which requests and answers
 * share (what a client sends is in bodies/home-kit-orders.ts).
 */
import * as v from 'valibot';
import { isCountryCode } from '../domain/countries';
import { HOME_KIT_ORDER_STATUSES } from '../domain/home-kit-order';
import type { Catalog } from '../store/catalog';
import type { ProfileRecord } from '../store/profiles';
import type { HomeKitOrderRecord } from '../store/home-kit-orders';
import {
  AttachedBiomarker,
  AttachedPanel,
  e164Phone,
  email,
  instant,
  LabOrderSummary,
  personName,
  RequisitionSummary,
  text,
  toLabOrderSummary,
  toRequisitionSummary,
  uuid,
} from './fields';
import { orderRequirementEntries, toOrderRequirements } from './order-requirements';
import { Profile, toFullProfile } from './profiles';

export const LocationReference = v.strictObject({ location_id: uuid });

export const InlineAddress = v.strictObject({
  name: personName(200),
  street: text(200),
  house_number: text(20),
  postal_code: text(20),
  city: text(100),
  country: v.pipe(v.string(), v.check(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)')),
  phone: v.optional(v.nullable(e164Phone)),
  email: v.optional(v.nullable(email)),
});

/**
 * What a delivery address looks like: a location reference or an inline address. Documentation only
 * (docs/openapi.json): the request is parsed by DeliveryAddressSchema (bodies/home-kit-orders.ts), whose own messages say
 * which shape was meant.
 */
export const DeliveryAddress = v.union([LocationReference, InlineAddress]);

// Responses.

/** Every response: the order with its embedded profile (transactional_emails_enabled included), attachments and what they ask. */
export const HomeKitOrder = v.object({
  id: uuid,
  profile_id: uuid,
  status: v.pipe(v.picklist(HOME_KIT_ORDER_STATUSES), v.description('pending → dispatched → activated; pending or dispatched → cancelled')),
  delivery_address: v.pipe(v.nullable(DeliveryAddress), v.description("null once the person's data was erased and the kit was to go to their own address")),
  created_at: instant,
  updated_at: v.nullable(instant),
  profile: Profile,
  panels: v.array(AttachedPanel),
  individual_biomarkers: v.array(AttachedBiomarker),
  ...orderRequirementEntries,
  // Beyond the spec: what a clinic needs to follow the kit.
  tracking_number: v.nullable(v.string()),
  carrier: v.nullable(v.string()),
  dispatched_at: v.nullable(instant),
  appointment_id: v.pipe(v.nullable(uuid), v.description('the appointment its activation created')),
  requisition: RequisitionSummary,
  lab_order: LabOrderSummary,
});
export type HomeKitOrder = v.InferOutput<typeof HomeKitOrder>;

/** Oldest attachment first; ties by id, numerically for biomarker ids. */
const byAddedAt = (entries: Record<string, string>) =>
  Object.entries(entries).sort(([idA, atA], [idB, atB]) => atA.localeCompare(atB) || idA.localeCompare(idB, 'en', { numeric: true }));

/** `catalog`: loadCatalog()'s, to resolve the tests' preparation and specimens. */
export function toHomeKitOrder(order: HomeKitOrderRecord, profile: ProfileRecord, catalog: Catalog): HomeKitOrder {
  return {
    id: order.id,
    profile_id: order.profile_id,
    status: order.status,
    delivery_address: order.delivery_address,
    created_at: order.created_at,
    updated_at: order.updated_at,
    profile: toFullProfile(profile),
    panels: byAddedAt(order.panels).map(([panel_id, added_at]) => ({ panel_id, added_at })),
    individual_biomarkers: byAddedAt(order.biomarkers).map(([id, added_at]) => ({ biomarker_id: Number(id), added_at })),
    ...toOrderRequirements({ panelIds: Object.keys(order.panels), biomarkerIds: Object.keys(order.biomarkers).map(Number) }, catalog, profile.language),
    tracking_number: order.tracking_number,
    carrier: order.carrier,
    dispatched_at: order.dispatched_at,
    appointment_id: order.appointment_id,
    requisition: toRequisitionSummary(order.requisition),
    lab_order: toLabOrderSummary(order.lab_order),
  };
}
