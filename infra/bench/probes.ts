/**
 * The bench's request per route (infra/bench/round-trips.ts asks each and counts its round trips): one
 * entry per route name, so a new route fails the type check until it has its request here.
 */
import { type RouteName } from '../../shared/routes';
import { BERLIN_MITTE, type Call, CARDIOGENETICS_PANEL, ESSENTIALS_PANEL, nextWeekday } from './api-client';
import { createSlotPicker } from '../local/slot-picker';
import { issueUnsubscribeToken } from '../../shared/store/email-consent';

export interface Probe {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

export interface World {
  call: Call;
  /** A profile with LIST_SIZE appointments, LIST_SIZE kit orders and LIST_SIZE access-log entries. */
  listedProfile: string;
  /** A drawn appointment with the lab's results and one document. */
  reported: { appointmentId: string; documentId: string };
  /** LIST_SIZE shipments and webhooks exist for the key. */
  fresh: {
    profile(): Promise<string>;
    appointment(options?: { panels?: boolean; drawn?: boolean }): Promise<string>;
    shipment(): Promise<string>;
    kitOrder(options?: { panels?: boolean; dispatched?: boolean }): Promise<string>;
    webhook(): Promise<string>;
    /** A lab report of ESSENTIALS_PANEL's tests whose barcode no order holds, kept unmatched (issue #51): its id. */
    unmatched(): Promise<string>;
  };
  barcode(): string;
}

export type Prober = (world: World) => Promise<Probe>;

export const PROFILE = { profile_group_slug: 'demo-clinic', first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' };
export const ADDRESS = { name: 'Bench Mark', street: 'Beispielweg', house_number: '7', postal_code: '10117', city: 'Berlin', country: 'DE' };
/** The token of a new patient link (POST …/patient-link answers `{url}`, whose last segment it is) to a fresh appointment. */
async function patientLinkToken(w: World): Promise<string> {
  const { json } = await w.call('POST', `/api/v1/appointments/${await w.fresh.appointment()}/patient-link`, {});
  return new URL((json as { url: string }).url).pathname.split('/').pop()!;
}

/** New bookable slots: every booking of the bench its own (infra/local/slot-picker.ts). */
export const slotIn = createSlotPicker();

/** A request per route that answers 2xx. `list`: a paged list, asked also with `limit`. */

export const PROBES = {
  health: async () => ({}),
  getOpenApiDocument: async () => ({}),
  getDocsPage: async () => ({}),
  getDocsAsset: async () => ({ params: { file: 'docs.js' } }),
  createProfile: async () => ({ body: PROFILE }),
  getProfile: async (w) => ({ params: { id: await w.fresh.profile() } }),
  updateProfile: async (w) => ({ params: { id: await w.fresh.profile() }, body: { language: 'de' } }),
  eraseProfile: async (w) => ({ params: { id: await w.fresh.profile() } }),
  exportProfile: async (w) => ({ params: { id: w.listedProfile } }),
  listLocations: async () => ({}),
  getLocation: async () => ({ params: { id: BERLIN_MITTE } }),
  // The clinic's own schedule, set again as it is (capacity as seeded): nothing moves.
  updateLocation: async () => ({ params: { id: BERLIN_MITTE }, body: { capacity_per_slot: 2 } }),
  // A week of the location's slots (what a booking app shows by default): its cost is in the availability figure.
  getLocationAvailability: async () => ({ params: { id: BERLIN_MITTE } }),
  listPanels: async () => ({}),
  listBiomarkers: async () => ({}),
  createAppointment: async (w) => ({ body: { profile_id: await w.fresh.profile(), location_id: BERLIN_MITTE, scheduled_at: slotIn(1) } }),
  getAppointment: async (w) => ({ params: { id: await w.fresh.appointment() } }),
  updateAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { scheduled_at: slotIn(2) } }),
  attachAppointmentPanels: async (w) => ({ params: { id: await w.fresh.appointment({ panels: false }) }, body: { panel_ids: [ESSENTIALS_PANEL] } }),
  attachAppointmentBiomarkers: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { biomarker_ids: [3] } }),
  confirmAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { barcode: w.barcode() } }),
  cancelAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { cancellation_reason: 'bench' } }),
  pickupAppointments: async (w) => ({ body: { appointment_ids: [await w.fresh.appointment({ drawn: true })] } }),
  listProfileAppointments: async (w) => ({ params: { id: w.listedProfile } }),
  listAppointmentHistory: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResults: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResultsHistory: async (w) => ({ params: { id: w.reported.appointmentId } }),
  // Needs an appointment with a critical value (the bench's lab reports plausible ones): covered by
  // test/integration/results-lifecycle.test.ts.
  acknowledgeAppointmentResults: undefined,
  getAppointmentResultsFhir: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentOrderFhir: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResultsReport: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentRequisition: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getDocument: async (w) => ({ params: { id: w.reported.documentId } }),
  createShipment: async () => ({ body: { location_id: BERLIN_MITTE, pickup_date: nextWeekday(), pickup_time_from: '10:00', pickup_time_till: '12:00' } }),
  listShipments: async () => ({}),
  getShipment: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  updateShipment: async (w) => ({ params: { id: await w.fresh.shipment() }, body: { pickup_time_till: '13:00' } }),
  cancelShipment: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  listShipmentHistory: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  updateShipmentStatus: async (w) => ({ params: { id: await w.fresh.shipment() }, body: { status: 'shipped', tracking_number: 'TRACK-1234' } }),
  createHomeKitOrder: async (w) => ({ body: { profile_id: await w.fresh.profile(), delivery_address: ADDRESS } }),
  getHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() } }),
  cancelHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() } }),
  attachHomeKitOrderPanels: async (w) => ({ params: { id: await w.fresh.kitOrder({ panels: false }) }, body: { panel_ids: [CARDIOGENETICS_PANEL] } }),
  attachHomeKitOrderBiomarkers: async (w) => ({ params: { id: await w.fresh.kitOrder() }, body: { biomarker_ids: [5] } }),
  dispatchHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() }, body: { tracking_number: 'TRACK-1234', carrier: 'DHL' } }),
  activateHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder({ dispatched: true }) }, body: { barcode: w.barcode() } }),
  listHomeKitOrderHistory: async (w) => ({ params: { id: await w.fresh.kitOrder({ dispatched: true }) } }),
  getHomeKitOrderRequisition: async (w) => {
    // An activated kit: its requisition is made then.
    const id = await w.fresh.kitOrder({ dispatched: true });
    await w.call('POST', `/api/v1/home-kit-orders/${id}/activate`, { barcode: w.barcode() });
    return { params: { id } };
  },
  createWebhook: async () => ({ body: { url: 'http://127.0.0.1:9/hooks', event_types: ['ShipmentStatusChanged'] } }),
  listWebhooks: async () => ({}),
  getWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  updateWebhook: async (w) => ({ params: { id: await w.fresh.webhook() }, body: { description: 'bench' } }),
  deleteWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  rotateWebhookSecret: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  sendTestWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  listWebhookDeliveries: async (w) => {
    // One delivery to list: the test event's (its receiver refuses the connection; the attempt is recorded).
    const id = await w.fresh.webhook();
    await w.call('POST', `/api/v1/webhooks/${id}/test`);
    return { params: { id } };
  },
  // Needs a delivery that failed after its last scheduled attempt (the retry sweep's work over hours): not
  // arranged here; test/integration/webhooks.test.ts covers the route.
  retryWebhookDelivery: undefined,
  listEvents: async () => ({}),
  // Need an event in the log (the webhook dispatcher's work) and a sandbox key: covered by
  // test/integration/event-log.test.ts and test/integration/sandbox.test.ts.
  getEvent: undefined,
  simulateSandboxResults: undefined,
  listProfileHomeKitOrders: async (w) => ({ params: { id: w.listedProfile } }),
  listProfileAccessLog: async (w) => ({ params: { id: w.listedProfile } }),
  // The queue holds what the probes below left waiting (each run keeps two more); asked also with limit.
  listUnmatchedResults: async (w) => {
    await w.fresh.unmatched();
    return {};
  },
  matchUnmatchedResult: async (w) => ({
    params: { id: await w.fresh.unmatched() },
    body: { appointment_id: await w.fresh.appointment({ drawn: true }) },
  }),
  discardUnmatchedResult: async (w) => ({ params: { id: await w.fresh.unmatched() }, body: { reason: 'bench' } }),
  listProfileMessages: async (w) => ({ params: { id: w.listedProfile } }),
  // An email's unsubscribe link (issue #52): a token issued as the message pipeline issues one, for a fresh profile.
  getUnsubscribePage: async (w) => ({ params: { token: await issueUnsubscribeToken(await w.fresh.profile(), new Date()) } }),
  unsubscribe: async (w) => ({
    params: { token: await issueUnsubscribeToken(await w.fresh.profile(), new Date()) },
    body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }),
  }),
  // A link to a fresh appointment at a location (issue #53): the page, a move to another slot, a cancel.
  createPatientLink: async (w) => ({ params: { id: await w.fresh.appointment() } }),
  getPatientPage: async (w) => ({ params: { token: await patientLinkToken(w) } }),
  reschedulePatientAppointment: async (w) => ({ params: { token: await patientLinkToken(w) }, body: { scheduled_at: slotIn(2) } }),
  cancelPatientAppointment: async (w) => ({ params: { token: await patientLinkToken(w) }, body: {} }),
} satisfies Record<RouteName, Prober | undefined>;
