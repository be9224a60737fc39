/**
 * Test locations. Only active locations carry GSI1 keys, so the index lists exactly what a key may use.
 *
 * Access patterns:
 * - a location by id .................... GetItem  PK=LOCATION#<id>
 * - active locations of a group ......... Query    GSI1 LOCGROUP#<slug> / LOCATION#…  (one per group of the key)
 * - change its schedule ................. UpdateItem  condition: active AND schedule_version as read
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Address } from '../domain/address';
import type { Closure, OpenHours } from '../domain/location-schedule';
import type { LogisticsProvider } from '../domain/shipment';
import { dynamo, tableName } from './client';
import { isConditionFailure } from './conditions';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { listByIndexPrefix, withoutKeys } from './query';
import { type NamedItem, named } from './transactions';
import { setAttributes } from './update-expression';

export type { OpenHours, Weekday } from '../domain/location-schedule';

export interface LocationRecord {
  id: string;
  location_group_slug: string;
  active: boolean;
  name: string;
  company_name: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country_name: string | null;
  country_code: string | null;
  timezone: string | null;
  contact_phone: string | null;
  email: string | null;
  website: string | null;
  google_maps_url: string | null;
  image_url: string | null;
  open_hours: OpenHours | null;
  /** Where couriers collect samples: a shipment's origin. */
  pickup_address: Address | null;
  /** Which courier serves this location and which lab it delivers to; null: no shipments from here. */
  logistics: { provider: LogisticsProvider; destination: Address } | null;
  /** Length of a bookable slot, in minutes (absent on items stored before schedules: DEFAULT_SLOT_MINUTES). */
  slot_minutes?: number;
  /** Bookings one slot takes: the chairs and staff (absent on older items: DEFAULT_CAPACITY_PER_SLOT). */
  capacity_per_slot?: number;
  /** Dates, in the location's time zone, on which it is closed whatever its hours say, in date order. */
  closures?: Closure[];
  /**
   * Counts the changes of the schedule (PATCH /locations/{id}): a booking decided on the schedule as read
   * is written on the condition that it is unchanged. Absent until the first change.
   */
  schedule_version?: number;
}

export const LOCATION_NOT_FOUND = 'Location not found';

export async function getLocation(id: string): Promise<LocationRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.location(id), ConsistentRead: true }));
  return Item ? withoutKeys<LocationRecord>(Item) : undefined;
}

/** Active locations of the given groups, by name. One Query per group, run in parallel. */
export async function listActiveLocations(locationGroups: Iterable<string>): Promise<LocationRecord[]> {
  const perGroup = await Promise.all([...locationGroups].map((group) => listByIndexPrefix<LocationRecord>(index.activeLocationsOf(group))));
  return perGroup.flat().sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export async function putLocation(location: LocationRecord): Promise<void> {
  const listed = location.active ? index.activeLocation(location.location_group_slug, location.id) : {};
  await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.location(location.id), ...listed, ...location } }));
}

export type SchedulePatch = Partial<Pick<LocationRecord, 'open_hours' | 'slot_minutes' | 'capacity_per_slot' | 'closures'>>;

/**
 * Writes a new schedule on the condition that the location is still active and its schedule still the
 * one read; bumps schedule_version, so a booking decided on the old schedule fails its condition and is
 * decided again. Undefined when the condition failed (a racing change or a deactivation: read again).
 */
export async function changeLocationSchedule(location: LocationRecord, patch: SchedulePatch): Promise<LocationRecord | undefined> {
  const update = setAttributes({ ...patch, schedule_version: (location.schedule_version ?? 0) + 1 });
  const asRead = location.schedule_version === undefined ? 'attribute_not_exists(schedule_version)' : 'schedule_version = :readVersion';
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.location(location.id),
        ...update,
        ConditionExpression: `active = :true AND ${asRead}`,
        ExpressionAttributeValues: {
          ...update.ExpressionAttributeValues,
          ':true': true,
          ...(location.schedule_version === undefined ? {} : { ':readVersion': location.schedule_version }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutKeys<LocationRecord>(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * A condition-check item: the location is still active and its schedule (hours, slots, capacity, closures)
 * still the one a booking was decided on.
 */
export const locationScheduleAsRead = (location: LocationRecord): NamedItem =>
  named('location', {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.location(location.id),
      ConditionExpression: `active = :true AND ${location.schedule_version === undefined ? 'attribute_not_exists(schedule_version)' : 'schedule_version = :version'}`,
      ExpressionAttributeValues: { ':true': true, ...(location.schedule_version === undefined ? {} : { ':version': location.schedule_version }) },
    },
  });

/** A condition-check item: the location is still active (it may be deactivated meanwhile). */
export const locationIsActive = (locationId: string): NamedItem =>
  named('location', {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.location(locationId),
      ConditionExpression: 'active = :true',
      ExpressionAttributeValues: { ':true': true },
    },
  });
