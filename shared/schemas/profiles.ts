/**
 * Profile requests (create, update) and the profile representations.
 *
 * Which fields a response carries depends on where the profile appears: the spec drops created_at /
 * updated_at from the create response and from the profile embedded in a new appointment, and shows
 * transactional_emails_enabled only in GET /profiles/{id} and inside a home kit order.
 */
import * as v from 'valibot';
import type { ProfileRecord } from '../store/profiles';
import { calendarDate, date, e164Phone, email, instant, numberBetween, personName, slug, uuid } from './fields';

export const LANGUAGES = ['en', 'de', 'fi'] as const;
/** ISO/IEC 5218: 0 = not known, 1 = male, 2 = female. Clients set 1 or 2; 0 may come from imported data. */
export const SEXES = [0, 1, 2] as const;

const profileFields = {
  handle: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3–64 letters, digits, dots, hyphens or underscores')),
  first_name: personName(100),
  last_name: personName(100),
  email,
  phone: e164Phone,
  sex: v.picklist([1, 2], 'must be 1 (male) or 2 (female)'),
  date_of_birth: calendarDate,
  height: numberBetween(30, 300, 'cm'),
  weight: numberBetween(1, 700, 'kg'),
  language: v.picklist(LANGUAGES, `must be one of ${LANGUAGES.join(', ')}`),
};

export const CreateProfileBody = v.strictObject({
  profile_group_slug: slug,
  first_name: profileFields.first_name,
  last_name: profileFields.last_name,
  date_of_birth: profileFields.date_of_birth,
  handle: v.nullish(profileFields.handle),
  email: v.nullish(profileFields.email),
  phone: v.nullish(profileFields.phone),
  sex: v.nullish(profileFields.sex),
  height: v.nullish(profileFields.height),
  weight: v.nullish(profileFields.weight),
  language: v.optional(profileFields.language, 'en'),
});
export type CreateProfileBody = v.InferOutput<typeof CreateProfileBody>;

/**
 * Every profile field but id and the group may change. Names, birth date and language are required on a
 * profile, so they cannot be cleared; the other fields accept null to clear them.
 */
export const UpdateProfileBody = v.pipe(
  v.strictObject({
    first_name: v.optional(profileFields.first_name),
    last_name: v.optional(profileFields.last_name),
    date_of_birth: v.optional(profileFields.date_of_birth),
    language: v.optional(profileFields.language),
    handle: v.optional(v.nullable(profileFields.handle)),
    email: v.optional(v.nullable(profileFields.email)),
    phone: v.optional(v.nullable(profileFields.phone)),
    sex: v.optional(v.nullable(profileFields.sex)),
    height: v.optional(v.nullable(profileFields.height)),
    weight: v.optional(v.nullable(profileFields.weight)),
    transactional_emails_enabled: v.optional(v.nullable(v.boolean())),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change at least one field'),
);
export type UpdateProfileBody = v.InferOutput<typeof UpdateProfileBody>;

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
/** GET /profiles/{id} and the profile inside a home kit order: every field. */
export const Profile = v.object({
  ...embeddedProfileEntries,
  transactional_emails_enabled: v.nullable(v.boolean()),
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
  return { ...toEmbeddedProfile(profile), transactional_emails_enabled: profile.transactional_emails_enabled, erased_at: profile.erased_at ?? null };
}

/** POST /profiles/{id}/erase: the erased profile and what this call changed (all empty when nothing was left). */
export const ProfileErasure = v.object({
  profile: Profile,
  cancelled_appointment_ids: v.pipe(v.array(uuid), v.description('scheduled appointments this call cancelled (reason "profile erased")')),
  cancelled_home_kit_order_ids: v.pipe(v.array(uuid), v.description('pending or dispatched kit orders this call cancelled')),
  erased_delivery_address_order_ids: v.pipe(v.array(uuid), v.description('kit orders whose inline delivery address this call removed')),
});
export type ProfileErasure = v.InferOutput<typeof ProfileErasure>;
