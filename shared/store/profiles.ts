/**
 * Profiles and profile groups.
 *
 * Access patterns:
 * - a profile by id ............................ GetItem        PK=PROFILE#<id>
 * - create a profile in an existing group ..... TransactWrite  ConditionCheck GROUP#<slug> + Put PROFILE#<id>
 * - update a profile inside the key's groups .. UpdateItem     condition: exists AND not erased AND group IN key's groups
 * - erase a profile's identifiers ............. UpdateItem     condition: exists AND not erased yet
 * - does a profile group exist ................ GetItem        PK=GROUP#<slug>
 * - a profile group's name ................... GetItem        PK=GROUP#<slug>
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotPermitted, NotFound } from '../errors';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import { PROFILE_LINK_PREFIX, type ProfileLinkKind } from './keys';
import * as keys from './keys/items';
import { queryAll, withoutKeys } from './query';
import { named, TransactionCancelled, transactWrite } from './transactions';
import { setAttributes } from './update-expression';
import type { EmailStatus } from './email-consent';

export interface ProfileRecord {
  id: string;
  profile_group_slug: string;
  handle: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  /** ISO/IEC 5218 */
  sex: 0 | 1 | 2 | null;
  date_of_birth: string | null;
  height: number | null;
  weight: number | null;
  language: 'en' | 'de' | 'fi';
  transactional_emails_enabled: boolean | null;
  /**
   * What became of the address (issue #52): `bounced` or `complained` once SES said so (shared/store/email-consent.ts
   * setEmailStatus), the new address's own when the email changes; absent (or null once erased) means `ok`.
   */
  email_status?: EmailStatus | null;
  created_at: string;
  updated_at: string | null;
  /** When the person's identifiers were erased (docs/privacy.md "Privacy"); absent until then. */
  erased_at?: string;
  /**
   * The person's bookings at locations (issue #28), by appointment id: "<start>/<end>" (UTC instants). A
   * booking reads them with the profile to refuse an overlapping one; entries of appointments no longer
   * scheduled are checked against the appointment and dropped by the next booking. Never answered.
   */
  booked_slots?: Record<string, string> | null;
  /** Counts the writes of booked_slots: each booking writes them on the condition that it is unchanged. */
  bookings_seq?: number;
}

export type ProfilePatch = Partial<Omit<ProfileRecord, 'id' | 'profile_group_slug' | 'created_at' | 'updated_at' | 'erased_at'>>;

/**
 * What erasure removes from a profile: everything that identifies the person or describes their body.
 * The profile keeps its id (results stay linked to it), its group (the tenant), its language and the
 * timestamps.
 */
export const ERASED_PROFILE_FIELDS = [
  'first_name',
  'last_name',
  'handle',
  'email',
  'phone',
  'date_of_birth',
  'sex',
  'height',
  'weight',
  'transactional_emails_enabled',
] as const;

export interface ProfileGroupRecord {
  slug: string;
  name: string;
  /** false: withdrawn by the reference data (infra/data): takes no new profiles; its profiles stay. */
  active?: boolean;
  /** Who the patient emails are from (issue #52): the clinic's or partner's name as patients know it; unset: `name`. */
  email_sender_name?: string | null;
  /** Where a patient's reply to an email goes; unset: no Reply-To (the sender address takes no mail). */
  email_reply_to?: string | null;
}

const PROFILE_GROUP_NOT_FOUND = 'Profile group not found';
export const PROFILE_NOT_FOUND = 'Profile not found';
export const PROFILE_ERASED = 'The profile was erased: it can no longer be changed or booked for (docs/privacy.md)';

export async function getProfile(id: string): Promise<ProfileRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.profile(id), ConsistentRead: true }));
  return Item ? withoutKeys<ProfileRecord>(Item) : undefined;
}

/** For a profile that must exist (it is referenced by an appointment or order; profiles are never deleted). */
export async function getExistingProfile(id: string): Promise<ProfileRecord> {
  const profile = await getProfile(id);
  if (!profile) throw new Error('Referenced profile is missing');
  return profile;
}

export async function profileGroupExists(slug: string): Promise<boolean> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.profileGroup(slug), ProjectionExpression: 'PK, active', ConsistentRead: true }),
  );
  return Item !== undefined && Item.active !== false;
}

/** A profile group as the reference data put it (a withdrawn one included: its profiles stay). */
export async function getProfileGroup(slug: string): Promise<ProfileGroupRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.profileGroup(slug), ConsistentRead: true }));
  return Item ? withoutKeys<ProfileGroupRecord>(Item) : undefined;
}

export async function putProfileGroup(group: ProfileGroupRecord): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.profileGroup(group.slug), ...group } }));
}

/** Stores a new profile; 404 when its group does not exist (checked in the same transaction). */
export async function createProfile(profile: ProfileRecord): Promise<void> {
  try {
    await transactWrite([
      named('group', {
        ConditionCheck: {
          TableName: tableName,
          Key: keys.profileGroup(profile.profile_group_slug),
          // A withdrawn group (reference data) takes no new profiles: as unknown as one that never was.
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(active) OR active <> :withdrawn)',
          ExpressionAttributeValues: { ':withdrawn': false },
        },
      }),
      named('profile', {
        Put: {
          TableName: tableName,
          Item: { ...keys.profile(profile.id), ...profile },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.failed('group')) throw new NotFound(PROFILE_GROUP_NOT_FOUND);
    throw error;
  }
}

/**
 * Applies a patch to a profile whose group is one of `profileGroups`, in one conditional write.
 * Missing profile → 404; a profile outside those groups → 403 (the item read back on failure tells which).
 */
export async function updateProfile(id: string, patch: ProfilePatch, updatedAt: string, profileGroups: readonly string[]): Promise<ProfileRecord> {
  const update = setAttributes({ ...patch, updated_at: updatedAt });
  const groupPlaceholders = profileGroups.map((_, i) => `:g${i}`);
  const inContext = groupPlaceholders.length > 0 ? ` AND #group IN (${groupPlaceholders.join(', ')})` : ' AND #group = :none';
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.profile(id),
        ...update,
        ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(erased_at)${inContext}`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#group': 'profile_group_slug' },
        ExpressionAttributeValues: {
          ...update.ExpressionAttributeValues,
          ...Object.fromEntries(profileGroups.map((slug, i) => [`:g${i}`, slug])),
          ...(profileGroups.length === 0 ? { ':none': null } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return withoutKeys<ProfileRecord>(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) {
      if (!error.Item) throw new NotFound(PROFILE_NOT_FOUND);
      // The item as it was, in DynamoDB's own notation: the group is a string attribute.
      if (!profileGroups.includes(error.Item.profile_group_slug?.S ?? '')) throw new NotPermitted('This API key has no access to this profile');
      throw new Conflict(PROFILE_ERASED);
    }
    throw error;
  }
}

/**
 * Erases the person's identifiers (ERASED_PROFILE_FIELDS become null) and sets `erased_at`, once: a profile
 * erased already is answered as it is (a repeated or concurrent erasure changes nothing).
 */
export async function eraseProfileIdentifiers(id: string, at: string): Promise<ProfileRecord> {
  // Its bookings' times go too: erasure has cancelled them.
  const update = setAttributes({
    ...Object.fromEntries(ERASED_PROFILE_FIELDS.map((field) => [field, null])),
    booked_slots: null,
    // What became of an address that is no longer held.
    email_status: null,
    erased_at: at,
    updated_at: at,
  });
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.profile(id),
        ...update,
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutKeys<ProfileRecord>(Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Erased already (or just now, by a concurrent request): answered as it is.
    const profile = await getProfile(id);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    return profile;
  }
}

/** The link a new appointment or kit order writes in its creating transaction (keys.profileLink). */
export const profileLink = (profileId: string, kind: ProfileLinkKind, id: string) =>
  named('profile link', { Put: { TableName: tableName, Item: { ...keys.profileLink(profileId, kind, id), created_for: profileId } } });

/** The ids of every appointment and kit order linked to a person, read consistently (records made before links existed are not among them). */
export async function linkedToProfile(profileId: string): Promise<Record<ProfileLinkKind, string[]>> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.profile(profileId).PK, ':prefix': PROFILE_LINK_PREFIX },
    ConsistentRead: true,
  });
  const linked: Record<ProfileLinkKind, string[]> = { APPT: [], KIT: [] };
  for (const { SK } of items) {
    const [, kind, id] = (SK as string).split('#');
    if ((kind === 'APPT' || kind === 'KIT') && id) linked[kind].push(id);
  }
  return linked;
}

/** A transaction's check that a new appointment or kit order is for a person not erased meanwhile. */
/**
 * Writes the person's bookings (booked_slots) on the condition that nobody else wrote them since `profile`
 * was read and that it is not erased: two bookings of one person serialise here, so neither can miss the
 * other's slot. A failure is a lost race (read again, decide again) or an erasure.
 */
export const profileBookingsAsRead = (profile: ProfileRecord, bookedSlots: Record<string, string>) =>
  named('profile', {
    Update: {
      TableName: tableName,
      Key: keys.profile(profile.id),
      UpdateExpression: 'SET booked_slots = :slots, bookings_seq = :next',
      ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(erased_at) AND ${
        profile.bookings_seq === undefined ? 'attribute_not_exists(bookings_seq)' : 'bookings_seq = :seq'
      }`,
      ExpressionAttributeValues: {
        ':slots': bookedSlots,
        ':next': (profile.bookings_seq ?? 0) + 1,
        ...(profile.bookings_seq === undefined ? {} : { ':seq': profile.bookings_seq }),
      },
    },
  });

export const profileNotErased = (id: string) =>
  named('profile', {
    ConditionCheck: { TableName: tableName, Key: keys.profile(id), ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(erased_at)' },
  });

export { PROFILE_GROUP_NOT_FOUND };
