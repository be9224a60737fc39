/** Home kit order requests and representations (SPEC "Home kit order", "Delivery address"). */
import * as v from 'valibot';
import type { DeliveryAddress } from '../domain/address';
import { isCountryCode } from '../domain/countries';
import { isJsonObject, parseNested } from '../http/validation';
import type { ProfileRecord } from '../store/profiles';
import type { HomeKitOrderRecord } from '../store/home-kit-orders';
import { e164Phone, email, text, uuid } from './fields';
import { toFullProfile } from './profiles';

const LocationReference = v.strictObject({ location_id: uuid });

const InlineAddress = v.strictObject({
  name: text(200),
  street: text(200),
  house_number: text(20),
  postal_code: text(20),
  city: text(100),
  country: v.pipe(v.string(), v.check(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)')),
  phone: v.optional(v.nullable(e164Phone)),
  email: v.optional(v.nullable(email)),
});


/** Exactly one shape: a location reference, or an inline address — never both mixed. */
const DeliveryAddressSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = dataset.value;
    if (!isJsonObject(value)) {
      addIssue({ message: 'delivery_address must be an object: {location_id} or an inline address' });
      return NEVER;
    }
    if ('location_id' in value && Object.keys(value).some((key) => key !== 'location_id')) {
      addIssue({ message: 'delivery_address must be either {location_id} or an inline address, not both' });
      return NEVER;
    }
    const parsed =
      'location_id' in value
        ? parseNested('delivery_address', LocationReference, value, addIssue)
        : parseNested('delivery_address', InlineAddress, value, addIssue);
    return (parsed ?? NEVER) as DeliveryAddress;
  }),
);

export const CreateHomeKitOrderBody = v.strictObject({
  profile_id: uuid,
  delivery_address: DeliveryAddressSchema,
});

export const DispatchBody = v.strictObject({
  tracking_number: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{4,64}$/, 'must be 4–64 letters, digits or hyphens')),
  carrier: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(50, 'must be at most 50 characters'))),
});

const links = <K extends string>(entries: Record<string, string>, idName: K, toId: (key: string) => string | number) =>
  Object.entries(entries)
    .map(([id, added_at]) => ({ [idName]: toId(id), added_at }) as Record<K, string | number> & { added_at: string })
    .sort((a, b) => a.added_at.localeCompare(b.added_at) || String(a[idName]).localeCompare(String(b[idName]), 'en', { numeric: true }));

/** Every response: the order with its embedded profile (transactional_emails_enabled included) and attachments. */
export function toHomeKitOrder(order: HomeKitOrderRecord, profile: ProfileRecord) {
  return {
    id: order.id,
    profile_id: order.profile_id,
    status: order.status,
    delivery_address: order.delivery_address,
    created_at: order.created_at,
    updated_at: order.updated_at,
    profile: toFullProfile(profile),
    panels: links(order.panels, 'panel_id', (id) => id),
    individual_biomarkers: links(order.biomarkers, 'biomarker_id', Number),
    // Beyond the spec: what a clinic needs to follow the kit.
    tracking_number: order.tracking_number,
    carrier: order.carrier,
    dispatched_at: order.dispatched_at,
    appointment_id: order.appointment_id,
  };
}
