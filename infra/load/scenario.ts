/**
 * The partners' mixed traffic of a load run (issue #54): each arrival the open model schedules is one request
 * (or one lab report), chosen by weight from what the state of the run allows — a confirm needs an
 * appointment with tests, a results read a reported one — and falling back to creating a profile when nothing
 * it needs exists yet. Bookings take one of the first three free slots the last availability read showed, so
 * partners race for nearly full slots (409s expected: `full`). Every answer is recorded; what the run made is
 * kept for the invariants (./invariants.ts): every 201 and where to read it, every appointment and the slots
 * it was booked into, the confirmed draws.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { BERLIN_MITTE, ESSENTIALS_PANEL, nextWeekday } from '../bench/api-client';
import type { LoadRecord } from './open-model';
import type { ServerControl } from './server-control';

const LOCATIONS = [BERLIN_MITTE, '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a02', '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a11'];
/** A request without an answer after this long is a hang (recorded as `timeout`). */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface Partner {
  name: string;
  key: string;
}

export interface Appointment {
  id: string;
  partner: Partner;
  profileId: string;
  locationId: string;
  start: string;
  panels?: boolean;
  confirmed?: boolean;
  /** The lab report's event id once one was handed to the ingest (the same id again on a retry). */
  reportId?: string;
  reported?: boolean;
  pickedUp?: boolean;
  cancelled?: boolean;
  token?: string;
  /** A request about it is in flight: no other action takes it until it is answered. */
  busy?: boolean;
}

export interface Created {
  cls: string;
  path: string;
  partner: Partner;
}

export interface RunState {
  profiles: { id: string; partner: Partner; booked: boolean }[];
  appointments: Appointment[];
  shipments: { id: string; partner: Partner; shipped?: boolean }[];
  created: Created[];
  touchedSlots: { locationId: string; start: string }[];
  slots: Map<string, string[]>;
}

export const newState = (): RunState => ({ profiles: [], appointments: [], shipments: [], created: [], touchedSlots: [], slots: new Map() });

type Json = { [key: string]: unknown } | undefined;

export interface Caller {
  /** One request, recorded under `cls`; answers its status and JSON body (undefined when not JSON). */
  (
    cls: string,
    dueAt: number,
    key: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    json: Json;
  }>;
}

export function httpCaller(baseUrl: string, record: LoadRecord): Caller {
  return async (cls, dueAt, key, method, path, body, headers = {}) => {
    let status: number | 'timeout' | 'error' = 'error';
    let json: Json;
    let retryAfter = false;
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      status = res.status;
      retryAfter = res.headers.has('retry-after');
      if ((res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0) json = JSON.parse(bytes.toString('utf8')) as Json;
    } catch (error) {
      status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'error';
    }
    record.add({ cls, status, ms: record.now() - dueAt, at: dueAt, ...(status === 503 ? { retryAfter } : {}) });
    return { status: typeof status === 'number' ? status : 0, json };
  };
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const barcode = () => `LOAD-${randomBytes(6).toString('hex').toUpperCase()}`;

interface Context {
  call: Caller;
  state: RunState;
  partners: Partner[];
  control?: ServerControl;
  record: LoadRecord;
  baseUrl: string;
}

type Action = (ctx: Context, dueAt: number) => Promise<void> | undefined;

const createProfile: Action = async ({ call, state, partners }, dueAt) => {
  const partner = pick(partners)!;
  const { status, json } = await call('POST /profiles', dueAt, partner.key, 'POST', '/api/v1/profiles', {
    profile_group_slug: 'demo-clinic',
    first_name: 'Load',
    last_name: 'Test',
    date_of_birth: '1980-01-01',
    email: `load-${randomUUID()}@example.com`,
  });
  if (status === 201 && json) {
    const id = json.id as string;
    state.profiles.push({ id, partner, booked: false });
    state.created.push({ cls: 'profile', path: `/api/v1/profiles/${id}`, partner });
  }
};

const readAvailability: Action = async ({ call, state, partners }, dueAt) => {
  const location = pick(LOCATIONS)!;
  const { status, json } = await call('GET /locations/{id}/availability', dueAt, pick(partners)!.key, 'GET', `/api/v1/locations/${location}/availability`);
  if (status === 200 && json)
    state.slots.set(
      location,
      (json.slots as { start: string }[]).slice(0, 6).map((slot) => slot.start),
    );
};

const book: Action = ({ call, state }, dueAt) => {
  const profile = state.profiles.find((candidate) => !candidate.booked);
  const location = pick([...state.slots.keys()]);
  const start = location && pick((state.slots.get(location) ?? []).slice(0, 3));
  if (!profile || !location || !start) return undefined;
  profile.booked = true;
  return (async () => {
    const { status, json } = await call('POST /appointments', dueAt, profile.partner.key, 'POST', '/api/v1/appointments', {
      profile_id: profile.id,
      location_id: location,
      scheduled_at: start,
    });
    if (status === 201 && json) {
      const id = json.id as string;
      state.appointments.push({ id, partner: profile.partner, profileId: profile.id, locationId: location, start });
      state.touchedSlots.push({ locationId: location, start });
      state.created.push({ cls: 'appointment', path: `/api/v1/appointments/${id}`, partner: profile.partner });
    } else {
      profile.booked = false;
      // Full (409) or past its lead time (400): not offered again until the next availability read.
      if (status === 409 || status === 400)
        state.slots.set(
          location,
          (state.slots.get(location) ?? []).filter((slot) => slot !== start),
        );
    }
  })();
};

const scheduled = (state: RunState, where: (a: Appointment) => boolean = () => true) =>
  state.appointments.filter((a) => !a.busy && !a.cancelled && !a.confirmed && where(a));

/** Runs `work` with the appointments marked busy, so that no other action races it (the races have their own tests). */
function using<T>(appointments: Appointment[], work: () => Promise<T>): Promise<T> {
  for (const a of appointments) a.busy = true;
  return work().finally(() => {
    for (const a of appointments) a.busy = false;
  });
}

const attachPanels: Action = ({ call, state }, dueAt) => {
  const appointment = pick(scheduled(state, (a) => !a.panels));
  if (!appointment) return undefined;
  return using([appointment], async () => {
    const { status } = await call('POST /appointments/{id}/panels', dueAt, appointment.partner.key, 'POST', `/api/v1/appointments/${appointment.id}/panels`, {
      panel_ids: [ESSENTIALS_PANEL],
    });
    if (status === 200) appointment.panels = true;
  });
};

const confirm: Action = ({ call, state }, dueAt) => {
  const appointment = pick(scheduled(state, (a) => a.panels === true));
  if (!appointment) return undefined;
  return using([appointment], async () => {
    const { status } = await call('POST /appointments/{id}/confirm', dueAt, appointment.partner.key, 'POST', `/api/v1/appointments/${appointment.id}/confirm`, {
      barcode: barcode(),
    });
    // Otherwise tried again later (a 503 during an outage).
    if (status === 200) appointment.confirmed = true;
  });
};

/** The lab's report of a confirmed draw, ingested as `npm run lab` does it (only with the run's own stack). */
const ingest: Action = ({ control, state, record }, dueAt) => {
  const appointment = pick(state.appointments.filter((a) => !a.busy && a.confirmed && !a.reported));
  if (!appointment || !control) return undefined;
  appointment.reportId ??= randomUUID();
  return using([appointment], async () => {
    let status: number | 'error' = 200;
    try {
      await control.send({ command: 'ingest', appointmentId: appointment.id, reportId: appointment.reportId! });
      appointment.reported = true;
    } catch {
      status = 'error'; // handed again later, with the same event id, as the lab's retry would
    }
    record.add({ cls: 'lab report ingest (npm run lab)', status, ms: record.now() - dueAt, at: dueAt });
  });
};

const pickup: Action = ({ call, state }, dueAt) => {
  const drawn = state.appointments.filter((a) => !a.busy && a.confirmed && !a.pickedUp).slice(0, 3);
  if (drawn.length === 0) return undefined;
  return using(drawn, async () => {
    const { status } = await call('POST /appointments/pickup', dueAt, drawn[0]!.partner.key, 'POST', '/api/v1/appointments/pickup', {
      appointment_ids: drawn.map((a) => a.id),
    });
    if (status === 200) for (const a of drawn) a.pickedUp = true;
  });
};

const createShipment: Action = async ({ call, state, partners }, dueAt) => {
  const partner = pick(partners)!;
  const { status, json } = await call('POST /shipments', dueAt, partner.key, 'POST', '/api/v1/shipments', {
    location_id: BERLIN_MITTE,
    pickup_date: nextWeekday(),
    pickup_time_from: '10:00',
    pickup_time_till: '12:00',
  });
  if (status === 201 && json) {
    const id = json.id as string;
    state.shipments.push({ id, partner });
    state.created.push({ cls: 'shipment', path: `/api/v1/shipments/${id}`, partner });
  }
};

const shipShipment: Action = ({ call, state }, dueAt) => {
  const shipment = pick(state.shipments.filter((s) => !s.shipped));
  if (!shipment) return undefined;
  shipment.shipped = true;
  return (async () => {
    const { status } = await call('POST /shipments/{id}/status', dueAt, shipment.partner.key, 'POST', `/api/v1/shipments/${shipment.id}/status`, {
      status: 'shipped',
      tracking_number: 'TRACK-1234',
    });
    if (status !== 200) shipment.shipped = false;
  })();
};

/** A GET of an appointment's sub-resource, for those `where` allows. */
const readOf =
  (cls: string, suffix: string, where: (a: Appointment) => boolean): Action =>
  ({ call, state }, dueAt) => {
    const appointment = pick(state.appointments.filter((a) => !a.busy && where(a)));
    if (!appointment) return undefined;
    return call(cls, dueAt, appointment.partner.key, 'GET', `/api/v1/appointments/${appointment.id}${suffix}`).then(() => undefined);
  };

const reported = (a: Appointment) => a.reported === true;

const readMessages: Action = ({ call, state }, dueAt) => {
  const profile = pick(state.profiles.filter((p) => p.booked));
  if (!profile) return undefined;
  return call('GET /profiles/{id}/messages', dueAt, profile.partner.key, 'GET', `/api/v1/profiles/${profile.id}/messages`).then(() => undefined);
};

const createLink: Action = ({ call, state }, dueAt) => {
  const appointment = pick(scheduled(state, (a) => !a.token));
  if (!appointment) return undefined;
  return using([appointment], async () => {
    const { status, json } = await call(
      'POST /appointments/{id}/patient-link',
      dueAt,
      appointment.partner.key,
      'POST',
      `/api/v1/appointments/${appointment.id}/patient-link`,
      {},
    );
    if ((status === 201 || status === 200) && json) {
      appointment.token = new URL(json.url as string).pathname.split('/').pop()!;
      state.created.push({ cls: 'patient link', path: `/p/${appointment.token}`, partner: appointment.partner });
    }
  });
};

const linked = (state: RunState) => scheduled(state, (a) => Boolean(a.token));

const patientPage: Action = ({ call, state }, dueAt) => {
  const appointment = pick(state.appointments.filter((a) => !a.busy && a.token));
  if (!appointment) return undefined;
  return call('GET /p/{token}', dueAt, undefined, 'GET', `/p/${appointment.token}`).then(() => undefined);
};

const patientReschedule: Action = ({ call, state, baseUrl }, dueAt) => {
  const appointment = pick(linked(state));
  const start = appointment && pick((state.slots.get(appointment.locationId) ?? []).filter((slot) => slot !== appointment.start).slice(0, 3));
  if (!appointment || !start) return undefined;
  return using([appointment], async () => {
    const { status } = await call(
      'POST /p/{token}/reschedule',
      dueAt,
      undefined,
      'POST',
      `/p/${appointment.token}/reschedule`,
      { scheduled_at: start },
      { origin: new URL(baseUrl).origin },
    );
    state.touchedSlots.push({ locationId: appointment.locationId, start });
    if (status === 200) appointment.start = start;
  });
};

const patientCancel: Action = ({ call, state, baseUrl }, dueAt) => {
  const appointment = pick(linked(state));
  if (!appointment) return undefined;
  return using([appointment], async () => {
    const { status } = await call(
      'POST /p/{token}/cancel',
      dueAt,
      undefined,
      'POST',
      `/p/${appointment.token}/cancel`,
      {},
      { origin: new URL(baseUrl).origin },
    );
    if (status === 200) appointment.cancelled = true;
  });
};

const cancel: Action = ({ call, state }, dueAt) => {
  const appointment = pick(scheduled(state, (a) => !a.panels));
  if (!appointment) return undefined;
  return using([appointment], async () => {
    const { status } = await call('POST /appointments/{id}/cancel', dueAt, appointment.partner.key, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      cancellation_reason: 'load run',
    });
    if (status === 200) appointment.cancelled = true;
  });
};

const badKey: Action = ({ call }, dueAt) =>
  call('bad key', dueAt, `lab_live_${randomBytes(16).toString('hex')}`, 'GET', '/api/v1/locations').then(() => undefined);

const badBody: Action = ({ call, partners }, dueAt) =>
  call('bad body', dueAt, pick(partners)!.key, 'POST', '/api/v1/profiles', { profile_group_slug: 'demo-clinic', first_name: 42 }).then(() => undefined);

const badJson: Action = ({ call, partners }, dueAt) =>
  call('bad body', dueAt, pick(partners)!.key, 'POST', '/api/v1/appointments', '{"profile_id": ').then(() => undefined);

/** The mix, by weight (per 100 arrivals). */
const MIX: [number, Action][] = [
  [11, createProfile],
  [9, readAvailability],
  [12, book],
  [7, attachPanels],
  [6, confirm],
  [5, ingest],
  [2, pickup],
  [3, createShipment],
  [2, shipShipment],
  [5, readOf('GET /appointments/{id}/results', '/results', reported)],
  [3, readOf('GET /appointments/{id}/results/fhir', '/results/fhir', reported)],
  [2, readOf('GET /appointments/{id}/results/report (PDF)', '/results/report', reported)],
  [2, readOf('GET /appointments/{id}/requisition (PDF)', '/requisition', (a) => a.confirmed === true)],
  [5, readOf('GET /appointments/{id}', '', () => true)],
  [2, readOf('GET /appointments/{id}/history', '/history', () => true)],
  [3, readMessages],
  [3, createLink],
  [3, patientPage],
  [1, patientReschedule],
  [1, patientCancel],
  [1, cancel],
  [1, badKey],
  [1, badBody],
  [1, badJson],
];
const TOTAL = MIX.reduce((sum, [weight]) => sum + weight, 0);

/** One arrival: an action by weight; what cannot run yet becomes a profile created, or an availability read. */
export function arrival(ctx: Context): (dueAt: number) => Promise<void> {
  return async (dueAt) => {
    let roll = Math.random() * TOTAL;
    let action = MIX.find(([weight]) => (roll -= weight) < 0)![1];
    let running = action(ctx, dueAt);
    if (!running) {
      action = ctx.state.slots.size < LOCATIONS.length || Math.random() < 0.3 ? readAvailability : createProfile;
      running = action(ctx, dueAt) ?? createProfile(ctx, dueAt);
    }
    await running;
  };
}

export type { Context as ScenarioContext };
