/**
 * What a reference data file may hold, checked before anything is written: the API's own schemas where it
 * has them (opening hours, addresses, reference ranges, ids, slugs), strict objects (a misspelt field is
 * an error, not a silently ignored key), and the rules a record must keep for the API to serve it (a real
 * IANA time zone, opening ranges in order).
 */
import * as v from 'valibot';
import { CONTAINERS, SPECIMEN_TYPES, TEST_METHODS } from '../../shared/domain/catalog';
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

/**
 * A profile group; `email` (issue #52): the name its patients' email is sent under (the From header's display
 * name, before the stage's sender address) and where their replies go; stored on the group as
 * `email_sender_name` and `email_reply_to`, each only when given (a group without them is sent as its `name`,
 * with no Reply-To).
 */
export const ProfileGroupFile = v.pipe(
  v.strictObject({
    slug,
    name: text(100),
    email: v.optional(v.strictObject({ sender_name: v.optional(text(100)), reply_to: v.optional(email) })),
  }),
  v.transform(({ email: sender, ...group }) => ({
    ...group,
    ...(sender?.sender_name !== undefined && { email_sender_name: sender.sender_name }),
    ...(sender?.reply_to !== undefined && { email_reply_to: sender.reply_to }),
  })),
);
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

/** A text in each language of the catalog: English, German, Finnish. */
const texts = (max: number) => v.strictObject({ en: text(max), de: text(max), fi: text(max) });
const loinc = v.pipe(v.string(), v.regex(/^\d{1,7}-\d$/, 'must be a LOINC code, e.g. 2276-4'));
const integer = (min: number, max: number) =>
  v.pipe(v.number(), v.integer('must be an integer'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

const Specimen = v.strictObject({
  type: v.picklist(SPECIMEN_TYPES, `must be one of ${SPECIMEN_TYPES.join(', ')}`),
  // A closed set, each with what one container yields: the count of containers an order needs is computed from it.
  container: v.picklist(CONTAINERS, `must be one of ${CONTAINERS.join(', ')}`),
  min_volume_ml: v.pipe(v.number(), v.gtValue(0, 'must be more than 0'), v.maxValue(50, 'must be at most 50')),
});

const Preparation = v.strictObject({
  fasting_hours: integer(0, 24),
  // null when the patient need do nothing; else what to do, in every language.
  instructions: v.nullable(texts(500)),
});

const collectionMethods = v.pipe(
  v.array(v.picklist(TEST_METHODS, `must be one of ${TEST_METHODS.join(', ')}`)),
  v.minLength(1, 'must list at least one collection method'),
  v.check((methods) => new Set(methods).size === methods.length, 'must list each collection method once'),
);

/** A biomarker as the file holds it; `name` and `category` are its English names (names.en, category_names.en). */
export const BiomarkerFile = v.pipe(
  v.strictObject({
    id: biomarkerId,
    names: texts(200),
    category_names: texts(100),
    unit_id: v.nullable(v.pipe(v.number(), v.integer('must be an integer'))),
    unit: nullableText(32),
    reference_range_service: v.nullable(ReferenceRange),
    kind: v.picklist(['clinical', 'genetic']),
    gene: v.optional(text(32)),
    loinc,
    // Values beyond these are critical: the clinician must see them at once (issue #29).
    critical_low: v.optional(v.nullable(v.number())),
    critical_high: v.optional(v.nullable(v.number())),
    specimen: Specimen,
    preparation: Preparation,
    collection_methods: collectionMethods,
    turnaround_days: integer(1, 90),
  }),
  v.transform(({ id, names, category_names, ...rest }) => ({ id, name: names.en, names, category: category_names.en, category_names, ...rest })),
);

/** A panel as the file holds it: its names and tests; what it asks of a lab and a patient is derived from them (reference-data.ts). */
export const PanelFile = v.pipe(
  v.strictObject({
    id: uuid,
    names: texts(200),
    description: nullableText(1000),
    // Only where the lab orders the set as one (a lipid panel); its members still report under their own codes.
    loinc: v.nullable(loinc),
    biomarker_ids: v.pipe(v.array(biomarkerId), v.minLength(1, 'must list at least one biomarker')),
  }),
  v.transform(({ id, names, ...rest }) => ({ id, name: names.en, names, ...rest })),
);
