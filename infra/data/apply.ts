/**
 * Plans and applies the reference data to a table: what to create, update or deactivate so that the table
 * holds what the files say. Idempotent (a table that matches gets no write at all), and it never deletes:
 * a record the data CLI wrote before and the files no longer list is deactivated (locations leave their
 * group's list, panels and biomarkers are no longer offered, a profile group takes no new profiles), as
 * appointments, profiles and keys may refer to it. Which records the CLI wrote is kept in one manifest
 * item, so the plan reads only the records it names and the files list (BatchGetItem), never a Scan.
 *
 * Writes go through the store's own put functions, with the index keys the API's reads expect.
 */
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type BiomarkerRecord, type PanelRecord, putBiomarker, putPanel } from '../../shared/store/catalog';
import { dynamo, tableName } from '../../shared/store/client';
import { type ItemKey } from '../../shared/store/keys';
import * as keys from '../../shared/store/keys/items';
import { type LocationRecord, putLocation } from '../../shared/store/locations';
import { type ProfileGroupRecord, putProfileGroup } from '../../shared/store/profiles';
import { batchGetAll, withoutKeys } from '../../shared/store/query';
import type { ReferenceData } from './reference-data';

type Kind = 'profile group' | 'location' | 'biomarker' | 'panel';
type AnyRecord = ProfileGroupRecord | LocationRecord | BiomarkerRecord | PanelRecord;

const KINDS: Record<Kind, { keyOf: (id: string) => ItemKey; put: (record: never) => Promise<void>; manifest: string }> = {
  'profile group': { keyOf: (id) => keys.profileGroup(id), put: putProfileGroup as (record: never) => Promise<void>, manifest: 'profile_groups' },
  location: { keyOf: (id) => keys.location(id), put: putLocation as (record: never) => Promise<void>, manifest: 'locations' },
  biomarker: { keyOf: (id) => keys.biomarker(Number(id)), put: putBiomarker as (record: never) => Promise<void>, manifest: 'biomarkers' },
  panel: { keyOf: (id) => keys.panel(id), put: putPanel as (record: never) => Promise<void>, manifest: 'panels' },
};

export interface Change {
  action: 'create' | 'update' | 'deactivate';
  kind: Kind;
  id: string;
  name: string;
  /** What is written: the record as the files say, or (deactivate) as stored with active false. */
  record: AnyRecord;
}

export interface Plan {
  changes: Change[];
  /** The ids per kind the manifest will hold after apply; undefined when it is already so. */
  manifest?: Record<string, string[]>;
}

function desiredRecords(data: ReferenceData): { kind: Kind; id: string; record: AnyRecord }[] {
  return [
    ...data.profileGroups.map((record) => ({ kind: 'profile group' as const, id: record.slug, record })),
    ...data.locations.map((record) => ({ kind: 'location' as const, id: record.id, record })),
    ...data.biomarkers.map((record) => ({ kind: 'biomarker' as const, id: String(record.id), record })),
    ...data.panels.map((record) => ({ kind: 'panel' as const, id: record.id, record })),
  ];
}

/**
 * The files seed a location's schedule; once a clinic changes it (PATCH /locations/{id}, which sets
 * schedule_version) the clinic owns it: apply keeps the stored schedule and its version, so it never
 * reverts a clinic's hours or closures, nor lets a booking decided on an older schedule pass its check.
 */
const SCHEDULE_FIELDS = ['open_hours', 'slot_minutes', 'capacity_per_slot', 'closures', 'schedule_version'] as const;
function keepingClinicSchedule(kind: Kind, record: AnyRecord, current: AnyRecord | undefined): AnyRecord {
  if (kind !== 'location' || (current as LocationRecord | undefined)?.schedule_version === undefined) return record;
  const stored = current as LocationRecord;
  return { ...record, ...Object.fromEntries(SCHEDULE_FIELDS.map((field) => [field, stored[field]])) } as LocationRecord;
}

const nameOf = (record: AnyRecord) => String((record as { name?: string }).name ?? '');

/** What would change in the table for it to hold `data`. Reads only; writes nothing. */
export async function planReferenceData(data: ReferenceData): Promise<Plan> {
  const { Item: manifestItem } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.referenceData, ConsistentRead: true }));
  const managed = (manifestItem?.ids ?? {}) as Record<string, string[]>;
  const desired = desiredRecords(data);
  const wanted = new Set(desired.map(({ kind, id }) => `${kind}:${id}`));
  const withdrawn = (Object.keys(KINDS) as Kind[]).flatMap((kind) =>
    (managed[KINDS[kind].manifest] ?? []).filter((id) => !wanted.has(`${kind}:${id}`)).map((id) => ({ kind, id })),
  );

  // Every record the plan compares, read in one BatchGetItem per 100, found again by its key.
  const byKey = new Map<string, string>();
  for (const { kind, id } of [...desired, ...withdrawn]) {
    const key = KINDS[kind].keyOf(id);
    byKey.set(`${key.PK}|${key.SK}`, `${kind}:${id}`);
  }
  const stored = new Map<string, AnyRecord>();
  const items = await batchGetAll([...desired, ...withdrawn].map(({ kind, id }) => KINDS[kind].keyOf(id)));
  for (const item of items) stored.set(byKey.get(`${String(item.PK)}|${String(item.SK)}`)!, withoutKeys<AnyRecord>(item));

  const changes: Change[] = [];
  for (const { kind, id, record: filed } of desired) {
    const current = stored.get(`${kind}:${id}`);
    const record = keepingClinicSchedule(kind, filed, current);
    if (!current) changes.push({ action: 'create', kind, id, name: nameOf(record), record });
    else if (!isDeepStrictEqual(current, record)) changes.push({ action: 'update', kind, id, name: nameOf(record), record });
  }
  for (const { kind, id } of withdrawn) {
    const current = stored.get(`${kind}:${id}`);
    if (current && (current as { active?: boolean }).active !== false) {
      changes.push({ action: 'deactivate', kind, id, name: nameOf(current), record: { ...current, active: false } });
    }
  }

  // The manifest keeps the ids it had (withdrawn ones stay managed) plus every id of the files.
  const next = Object.fromEntries(
    (Object.keys(KINDS) as Kind[]).map((kind) => {
      const ids = new Set([...(managed[KINDS[kind].manifest] ?? []), ...desired.filter((d) => d.kind === kind).map((d) => d.id)]);
      return [KINDS[kind].manifest, [...ids].sort()];
    }),
  );
  const sortedManaged = Object.fromEntries(Object.entries(managed).map(([kind, ids]) => [kind, [...ids].sort()]));
  return { changes, manifest: isDeepStrictEqual(next, sortedManaged) ? undefined : next };
}

/**
 * The groups a key may name, as the reference data made them (its manifest: no Scan): the profile groups
 * that take profiles and the location groups with an active location, sorted. For an operator's message
 * (the keys CLI naming what exists when a group does not); groups made by hand elsewhere are not in it.
 */
export async function knownGroups(): Promise<{ profileGroups: string[]; locationGroups: string[] }> {
  const { Item: manifest } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.referenceData, ConsistentRead: true }));
  const ids = (manifest?.ids ?? {}) as Record<string, string[]>;
  const records = await batchGetAll([
    ...(ids[KINDS['profile group'].manifest] ?? []).map((id) => keys.profileGroup(id)),
    ...(ids[KINDS.location.manifest] ?? []).map((id) => keys.location(id)),
  ]);
  const active = records.filter((item) => item.active !== false);
  const ofKind = (kind: 'profile group' | 'location') => active.filter((item) => item.SK === KINDS[kind].keyOf('x').SK);
  const profileGroups = ofKind('profile group').map((item) => String(item.slug));
  const locationGroups = ofKind('location').map((item) => String(item.location_group_slug));
  return { profileGroups: [...new Set(profileGroups)].sort(), locationGroups: [...new Set(locationGroups)].sort() };
}

/** Writes what the plan says: each record with the store's put, then the manifest. */
export async function applyPlan(plan: Plan): Promise<void> {
  for (const change of plan.changes) await KINDS[change.kind].put(change.record as never);
  if (plan.manifest) {
    await dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.referenceData, ids: plan.manifest } }));
  }
}

/** One line per change, as plan and apply print them. */
export function describePlan(plan: Plan): string[] {
  if (plan.changes.length === 0) return ['no changes: the table holds what the files say'];
  return plan.changes.map(({ action, kind, id, name }) => `${action.padEnd(10)} ${kind.padEnd(13)} ${id}${name ? `  ${name}` : ''}`);
}
