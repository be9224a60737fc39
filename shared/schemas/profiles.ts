/**
 * The profile representations (what a client sends is in bodies/profiles.ts).
 *
 * Which fields a response carries depends on where the profile appears: the spec drops created_at /
 * updated_at from the create response and from the profile embedded in a new appointment, and shows
 * transactional_emails_enabled only in GET /profiles/{id} and inside a home kit order.
 */
import * as v from 'valibot';
import type { ProfileRecord } from '../store/profiles';
import { date, instant, uuid } from './fields';
import type { EmailStatus } from '../store/email-consent';

export const LANGUAGES = ['en', 'de', 'fi'] as const;
/** ISO/IEC 5218: 0 = not known, 1 = male, 2 = female. Clients set 1 or 2; 0 may come from imported data. */
export const SEXES = [0, 1, 2] as const;

// Responses: the profile in its three presences (see the header comment).

const createdProfileEntries = {
  id: uuid,
  handle: v.nullable(v.string()),
  first_name: v.nullable(v.string()),
  last_name: v.nullable(v.string()),
  email: v.nullable(v.pipe(v.string(), v.email())),
  phone: v.pipe(v.nullable(v.string()), v.description('E.164')),
  sex: v.pipe(v.nullable(v.picklist(SEXES)), v.description('ISO/IEC 5218: 0 = not known, 1 = male, 2 = female')),
  date_of_birth: v.nullable(date),
  height: v.pipe(v.nullable(v.number()), v.description('centimetres')),
  weight: v.pipe(v.nullable(v.number()), v.description('kilograms')),
  language: v.picklist(LANGUAGES),
};
const embeddedProfileEntries = { ...createdProfileEntries, created_at: instant, updated_at: v.nullable(instant) };

/** The Create Profile response and the profile inside a new appointment: no timestamps. */
export const CreatedProfile = v.object(createdProfileEntries);
export type CreatedProfile = v.InferOutput<typeof CreatedProfile>;
/** PATCH /profiles/{id} and the profile embedded in an appointment: with timestamps. */
export const EmbeddedProfile = v.object(embeddedProfileEntries);
export type EmbeddedProfile = v.InferOutput<typeof EmbeddedProfile>;
/** shared/store/email-consent.ts EMAIL_STATUSES, spelled here: a schema imports no store module. */
const EMAIL_STATUSES = ['ok', 'bounced', 'complained'] as const satisfies readonly EmailStatus[];

/** GET /profiles/{id} and the profile inside a home kit order: every field. */
export const Profile = v.object({
  ...embeddedProfileEntries,
  transactional_emails_enabled: v.nullable(v.boolean()),
  email_status: v.pipe(
    v.picklist(EMAIL_STATUSES),
    v.description(
      '`ok`, or what became of the email address: `bounced` (its mail server refused our email for good) or `complained` (the ' +
        "person marked it as spam); no email goes to such an address again. Changing `email` sets the new address's status.",
    ),
  ),
  erased_at: v.pipe(v.nullable(instant), v.description("when the person's identifiers were erased (POST /profiles/{id}/erase); null until then")),
});
export type Profile = v.InferOutput<typeof Profile>;

export function toCreatedProfile(profile: ProfileRecord): CreatedProfile {
  return {
    id: profile.id,
    handle: profile.handle,
    first_name: profile.first_name,
    last_name: profile.last_name,
    email: profile.email,
    phone: profile.phone,
    sex: profile.sex,
    date_of_birth: profile.date_of_birth,
    height: profile.height,
    weight: profile.weight,
    language: profile.language,
  };
}

export function toEmbeddedProfile(profile: ProfileRecord): EmbeddedProfile {
  return { ...toCreatedProfile(profile), created_at: profile.created_at, updated_at: profile.updated_at };
}

export function toFullProfile(profile: ProfileRecord): Profile {
  return {
    ...toEmbeddedProfile(profile),
    transactional_emails_enabled: profile.transactional_emails_enabled,
    email_status: profile.email_status ?? 'ok',
    erased_at: profile.erased_at ?? null,
  };
}

/** POST /profiles/{id}/erase: the erased profile and what this call changed (all empty when nothing was left). */
export const ProfileErasure = v.object({
  profile: Profile,
  cancelled_appointment_ids: v.pipe(v.array(uuid), v.description('scheduled appointments this call cancelled (reason "profile erased")')),
  cancelled_home_kit_order_ids: v.pipe(v.array(uuid), v.description('pending or dispatched kit orders this call cancelled')),
  erased_delivery_address_order_ids: v.pipe(v.array(uuid), v.description('kit orders whose inline delivery address this call removed')),
});
export type ProfileErasure = v.InferOutput<typeof ProfileErasure>;
