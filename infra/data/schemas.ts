/**
 * What a reference data file may hold, checked before anything is written: the API's own schemas where it
 * has them (opening hours, addresses, reference ranges, ids, slugs), strict objects (a misspelt field is
 * an error, not a silently ignored key), and the rules a record must keep for the API to serve it (a real
 * IANA time zone, opening ranges in order).
 */
import * as v from 'valibot';
import { LOGISTICS_PROVIDERS } from '../../shared/domain/shipment';
import { ReferenceRange } from '../../shared/events/result-shapes';
import { biomarkerId } from '../../shared/schemas/bodies/appointments';
import { email, slug, text, uuid } from '../../shared/schemas/fields';
import { scheduleFields } from '../../shared/schemas/bodies/locations';
import { Address } from '../../shared/schemas/shipments';

const nullableText = (max: number) => v.nullable(text(max));

/** Intl knows every IANA zone the runtime does: the same test the functions' time zone code relies on. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

export const ProfileGroupFile = v.strictObject({ slug, name: text(100) });
export const LocationGroupFile = v.strictObject({ slug, name: text(100) });

export const LocationFile = v.strictObject({
  id: uuid,
  name: text(200),
  active: v.optional(v.boolean(), true),
  location_group_slug: slug,
  company_name: nullableText(200),
  address_line_1: nullableText(200),
  address_line_2: nullableText(200),
  city: nullableText(100),
  state: nullableText(100),
  postal_code: nullableText(20),
  country_name: nullableText(100),
  country_code: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'))),
  timezone: v.nullable(v.pipe(v.string(), v.check(isTimeZone, 'must be an IANA time zone, e.g. Europe/Berlin'))),
  contact_phone: nullableText(32),
  email: v.nullable(email),
  website: v.nullable(v.pipe(v.string(), v.url('must be a URL'))),
  google_maps_url: v.nullable(v.pipe(v.string(), v.url('must be a URL'))),
  image_url: v.nullable(v.pipe(v.string(), v.url('must be a URL'))),
  open_hours: scheduleFields.open_hours,
  pickup_address: v.nullable(v.strictObject(Address.entries)),
  logistics: v.nullable(v.strictObject({ provider: v.picklist(LOGISTICS_PROVIDERS), destination: v.strictObject(Address.entries) })),
  slot_minutes: scheduleFields.slot_minutes,
  capacity_per_slot: scheduleFields.capacity_per_slot,
  closures: scheduleFields.closures,
});

export const BiomarkerFile = v.strictObject({
  id: biomarkerId,
  name: text(200),
  category: text(100),
  unit_id: v.nullable(v.pipe(v.number(), v.integer('must be an integer'))),
  unit: nullableText(32),
  reference_range_service: v.nullable(ReferenceRange),
  kind: v.picklist(['clinical', 'genetic']),
  gene: v.optional(text(32)),
  loinc: v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}-\d$/, 'must be a LOINC code, e.g. 2276-4'))),
  // Values beyond these are critical: the clinician must see them at once (issue #29).
  critical_low: v.optional(v.nullable(v.number())),
  critical_high: v.optional(v.nullable(v.number())),
});

export const PanelFile = v.strictObject({
  id: uuid,
  name: text(200),
  description: nullableText(1000),
  biomarker_ids: v.pipe(v.array(biomarkerId), v.minLength(1, 'must list at least one biomarker')),
});
