/** What a client sends to create and to update a profile. */
import * as v from 'valibot';
import { calendarDate, e164Phone, email, numberBetween, personName, slug } from '../fields';
import { LANGUAGES } from '../profiles';

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
