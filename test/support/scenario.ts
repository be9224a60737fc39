/** Arranging appointments through the public API, the way a clinic app would. */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { berlinDateTime } from '../../shared/domain/calendar';
import { dynamo, tableName } from '../../shared/store/client';
import { appointmentSk } from '../../shared/store/keys';
import * as keys from '../../shared/store/keys/items';
import type { TestApi } from './api';
import { BERLIN_MITTE, BIOMARKERS } from './fixtures';
import { slotIn } from './slots';

export { slotIn };

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A weekday at least `daysAhead` Berlin days ahead: a pickup date every shipment rule accepts, whatever the
 * hour (the rules read Berlin's calendar, shared/domain/pickup-window.ts, which is a day ahead of UTC's
 * from 22:00 or 23:00 UTC). Larger `daysAhead` give later or equal dates.
 */
export function pickupDate(daysAhead = 2): string {
  const day = new Date(`${berlinDateTime(new Date()).date}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + daysAhead);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export const ESSENTIALS_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01'; // biomarkers 1, 2, 5, 6
export const HEART_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b02'; // biomarkers 7, 8, 9, 10
export const THYROID_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b03'; // biomarkers 3, 4
/** The one seeded panel a home kit can take (saliva): the others hold venous tests (issue #50). */
export const CARDIOGENETICS_PANEL = '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b04'; // biomarkers 100, 102
/** The seeded tests a home kit can take, by id: vitamin D and HbA1c (5, 6), the genetic ones (100, 101, 102). */
export const HOME_KIT_BIOMARKERS = BIOMARKERS.filter((biomarker) => biomarker.collection_methods.includes('home')).map((biomarker) => biomarker.id);

export async function createProfile(api: TestApi, key: string, group = 'demo-clinic'): Promise<string> {
  const res = await api.post('/api/v1/profiles', { profile_group_slug: group, first_name: 'Test', last_name: 'Patient', date_of_birth: '1979-10-01' }, key);
  expect(res.status).toBe(201);
  return res.body.id;
}

export async function scheduleAppointment(
  api: TestApi,
  key: string,
  options: { profileId?: string; locationId?: string; scheduledAt?: string } = {},
): Promise<string> {
  const res = await api.post(
    '/api/v1/appointments',
    {
      profile_id: options.profileId ?? (await createProfile(api, key)),
      location_id: options.locationId ?? BERLIN_MITTE,
      scheduled_at: options.scheduledAt ?? slotIn(7, options.locationId ?? BERLIN_MITTE),
    },
    key,
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A scheduled appointment with something to test (ferritin, biomarker 1): one whose draw can be confirmed. */
export async function drawableAppointment(api: TestApi, key: string, options: Parameters<typeof scheduleAppointment>[2] = {}): Promise<string> {
  const id = await scheduleAppointment(api, key, options);
  expect((await api.post(`/api/v1/appointments/${id}/biomarkers`, { biomarker_ids: [1] }, key)).status).toBe(200);
  return id;
}

let barcodeCounter = 0;
/** A barcode no other test uses (the barcode registry is shared by every appointment in a table). */
export function newBarcode(): string {
  barcodeCounter += 1;
  return `T${Date.now().toString(36).toUpperCase()}-${barcodeCounter}`;
}

/**
 * Confirms the draw. A draw needs something to test (confirm answers 409 otherwise): an appointment with
 * no panel and no biomarker gets ferritin (biomarker 1) first, as a clinic would attach a test.
 */
export async function confirmDraw(api: TestApi, key: string, appointmentId: string, barcode = newBarcode()): Promise<string> {
  if (!(await hasTests(appointmentId))) {
    expect((await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [1] }, key)).status).toBe(200);
  }
  const res = await api.post(`/api/v1/appointments/${appointmentId}/confirm`, { barcode }, key);
  expect(res.status).toBe(200);
  return barcode;
}

/** Whether the appointment has a panel or a biomarker attached, read from the table (no scope needed). */
async function hasTests(appointmentId: string): Promise<boolean> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.appointment(appointmentId).PK },
      ProjectionExpression: 'SK',
      ConsistentRead: true,
    }),
  );
  return Items.some(({ SK }) => String(SK).startsWith(appointmentSk.panel) || String(SK).startsWith(appointmentSk.biomarker));
}

/** The appointment item as stored (to assert what a request changed, or did not). */
export async function storedAppointment(id: string): Promise<Record<string, unknown>> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.appointment(id) }));
  return Item as Record<string, unknown>;
}
