/**
 * What each route of the routes table answers, in the spec's words: the second half of the contract.
 * shared/routes.ts says where a route lives and who may call it; each handler declares what it accepts
 * (its params, query and body schemas); this table says what it answers. infra/contract/openapi.ts joins
 * the three into docs/openapi.json. shared/http/handler.ts types every handler's return value by its row
 * here (a success status and body type the row does not document do not compile); errors are thrown, so
 * the tests check them: every response the suites receive is validated against the document
 * (test/support/contract.ts), an undocumented status or field included.
 *
 * Only successes and route-specific errors are listed: 400, 401, 403, 415, the idempotency refusals, 500 and
 * 503 (with Retry-After: DynamoDB or S3 could not answer now, on every keyed route) follow from the route's
 * inputs, scopes and Idempotency-Key support (the generator adds them).
 */
import * as v from 'valibot';
import type { RouteName } from '../routes';
import { AccessLogEntry } from '../schemas/access-log';
import { Appointment, AppointmentSummary, CreatedAppointment } from '../schemas/appointments';
import { Biomarker, Panel } from '../schemas/catalog';
import { Success } from '../schemas/fields';
import { ProfileExport } from '../schemas/export';
import { AppointmentHistoryEntry, HomeKitOrderHistoryEntry, ShipmentHistoryEntry } from '../schemas/history';
import { HomeKitOrder } from '../schemas/home-kit-orders';
import { Availability, Location, UpdatedLocation } from '../schemas/locations';
import { CreatedProfile, EmbeddedProfile, Profile, ProfileErasure } from '../schemas/profiles';
import { EventLogEntries, EventLogEntry } from '../schemas/event-log';
import { AppointmentResults, AppointmentResultsHistory } from '../schemas/results';
import { CreatedShipment, Shipment, ShipmentWithAppointments } from '../schemas/shipments';
import { Webhook, WebhookDelivery, WebhookWithSecret } from '../schemas/webhooks';
import * as examples from './examples';

export const TAGS = {
  Profiles: 'The people tested: names, birth date, contact data. Each belongs to one profile group.',
  Locations: 'Test locations (clinics, labs) where blood is drawn.',
  Catalog: 'Panels and biomarkers that can be ordered.',
  Appointments: 'Blood-draw appointments: booking, tests, the draw (confirm), courier pickup.',
  Results: 'Lab results of an appointment and the lab report files.',
  Shipments: 'Courier shipments of samples from a location to the lab.',
  'Home kit orders': 'Home test kits: ordered, dispatched, activated with the sample barcode.',
  Webhooks:
    "A client's subscriptions to the domain events, delivered as signed Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) " +
    'with retries, a delivery log and replay. Scope WEBHOOKS_MANAGE; a subscription belongs to the key that made it.',
  Events: 'The event log: the events a key could receive by webhook, kept 30 days, to reconcile from.',
  Sandbox: "Sandbox keys (lab_test_…) work on data of their own; they can simulate the lab's answers.",
  Service: 'Health, this document and its docs page: no API key needed.',
} as const;

export interface ResponseDoc {
  readonly description: string;
  /** The JSON body; absent for a body of another content type. */
  readonly schema?: v.GenericSchema;
  /** A body that is not JSON: its content type and a JSON Schema of it. */
  readonly content?: { readonly type: string; readonly schema: object };
  readonly headers?: { readonly [name: string]: { readonly description: string; readonly required?: boolean } };
  readonly example?: unknown;
}

export interface OperationDoc {
  readonly tag: keyof typeof TAGS;
  readonly summary: string;
  readonly description: string;
  /** The answers a handler returns, by status. */
  readonly responses: { readonly [status: number]: ResponseDoc };
  /** The errors this route adds to the generic ones, by status: when they happen. */
  readonly errors?: { readonly [status: number]: string };
  readonly requestExample?: unknown;
}

const list = <S extends v.GenericSchema>(item: S) => v.array(item);
const success = { description: 'Done.', schema: Success } as const;
const PAGE = {
  headers: {
    'X-Next-Cursor': { description: 'The cursor of the next page (pass it as `cursor`); absent on the last page.' },
  },
} as const;
const CHANGED_MEANWHILE = 'a concurrent request changed the resource meanwhile: retry';
/** A cancel or dispatch that lost a race decides again on the new state; this is when that kept losing (shared/usecases/decide-again.ts). */
const KEPT_CHANGING = 'the resource kept changing under concurrent requests: retry';
/** The routes that show a person's data record each read first (docs/privacy.md "Privacy", shared/http/audit.ts). */
const READ_NOT_RECORDED = 'the read could not be recorded in the access log, so nothing is shown: retry';
/** The changes that answer the person record that answer as a read; the change is made before (docs/privacy.md "Privacy"). */
const CHANGE_NOT_SHOWN =
  'the change was made, but its answer could not be recorded in the access log, so nothing is shown: read the resource, do not repeat the change';

export const operations = {
  health: {
    tag: 'Service',
    summary: 'Health check',
    description: 'Tells a load balancer or a developer that the API answers. No key needed.',
    responses: { 200: { description: 'The API answers.', schema: v.object({ status: v.string() }) } },
  },
  getOpenApiDocument: {
    tag: 'Service',
    summary: 'This OpenAPI document',
    description: 'The contract of the API, generated from the code that validates requests. No key needed.',
    responses: {
      200: { description: 'The OpenAPI 3.1 document, with this server as `servers`.', schema: v.record(v.string(), v.unknown()) },
    },
  },
  getDocsPage: {
    tag: 'Service',
    summary: 'Docs page',
    description: 'An HTML page rendering this document (Swagger UI, served by the API itself). No key needed.',
    responses: { 200: { description: 'The page.', content: { type: 'text/html', schema: { type: 'string' } } } },
  },
  getDocsAsset: {
    tag: 'Service',
    summary: 'A file of the docs page',
    description: "The docs page's script and style sheet, and the events' JSON Schemas its introduction links to. No key needed.",
    responses: {
      200: { description: 'The file, gzip-encoded when the client accepts it.', content: { type: '*/*', schema: { type: 'string' } } },
    },
    errors: { 404: 'no such file' },
  },

  createProfile: {
    tag: 'Profiles',
    summary: 'Create a profile',
    description: 'Creates a profile and assigns it to a profile group. first_name, last_name and date_of_birth (in the past) are required.',
    responses: { 201: { description: 'The profile, without timestamps.', schema: CreatedProfile, example: examples.createdProfile } },
    errors: { 404: 'profile group not found' },
    requestExample: examples.createProfileBody,
  },
  getProfile: {
    tag: 'Profiles',
    summary: 'Get a profile',
    description: 'The profile with all fields, created_at, updated_at and transactional_emails_enabled included.',
    responses: { 200: { description: 'The profile.', schema: Profile } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },
  updateProfile: {
    tag: 'Profiles',
    summary: 'Update a profile',
    description: 'Partial update: only the fields sent change; null clears an optional field.',
    responses: { 200: { description: 'The full updated profile including created_at and updated_at.', schema: EmbeddedProfile } },
    errors: { 404: 'profile not found', 409: 'the profile was erased', 503: CHANGE_NOT_SHOWN },
  },
  eraseProfile: {
    tag: 'Profiles',
    summary: "Erase a person's identifiers (GDPR Art. 17)",
    description:
      'Sets first_name, last_name, handle, email, phone, date_of_birth, sex, height, weight and transactional_emails_enabled to null and ' +
      'marks the profile `erased_at`; cancels its scheduled appointments and its pending or dispatched kit orders through their normal ' +
      'transitions (history entries and events, reason "profile erased"); removes the inline delivery address of every kit order. Lab ' +
      'results and their documents are kept (medical records), linked only to the profile id. Afterwards the profile cannot be ' +
      'changed (409) and no appointment or kit order can be made for it (409). Idempotent: a retry after a failure finishes the ' +
      'erasure; erasing an erased profile changes nothing and answers 200 with empty lists.',
    responses: { 200: { description: 'The erased profile and what this call changed.', schema: ProfileErasure } },
    errors: { 404: 'profile not found', 503: 'the profile is erased, but an appointment or kit order kept changing meanwhile: retry to finish' },
  },
  exportProfile: {
    tag: 'Profiles',
    summary: "Export a person's data (GDPR Art. 15/20)",
    description:
      'Everything the API holds about one person, as one JSON document: the profile (also an erased one), every appointment with its ' +
      'status history, tests, shipment links (`shipments`), results (clinical and genetic, as GET /appointments/{id}/results answers ' +
      'them) and lab report files (`documents`: id, file name, `download_url`), and every home kit order with its history. The ' +
      '`format` ("lab-api.profile-export") and `version` (1) at the top name the shape: within a version fields may be added; a change ' +
      'that removes, renames or redefines one makes a new version. Needs both PROFILES_VIEW and RESULTS_VIEW. The document must fit ' +
      'in one API response (6 MB, about 2,000 appointments with 4 results each); a larger one is refused with 413 rather than cut short.',
    responses: { 200: { description: 'The export, version 1.', schema: ProfileExport } },
    errors: {
      404: 'profile not found',
      413: "the export is larger than one API response can carry: read the person's data through the profile's list routes instead",
      503: READ_NOT_RECORDED,
    },
  },

  listLocations: {
    tag: 'Locations',
    summary: 'List test locations',
    description: 'The active locations accessible to the key. The id of a location is used when creating an appointment or a shipment.',
    responses: { 200: { description: 'Locations, by name.', schema: list(Location) } },
  },
  getLocation: {
    tag: 'Locations',
    summary: 'Get a test location',
    description: 'One active location accessible to the key.',
    responses: { 200: { description: 'The location.', schema: Location } },
    errors: { 404: 'location not found or inactive' },
  },
  updateLocation: {
    tag: 'Locations',
    summary: "Change a location's schedule",
    description:
      'Sets any of open_hours (every weekday; ranges open before they close, in order, not overlapping), slot_minutes (5–240, a multiple of 5), ' +
      "capacity_per_slot (1–100) and closures (replaces the list). Scope LOCATIONS_MANAGE, the location inside the key's location groups. " +
      'Never cancels a booking: affected_appointments names the scheduled ones the new schedule would not take, so the clinic can move them.',
    responses: { 200: { description: 'The location, and the bookings the new schedule leaves outside it.', schema: UpdatedLocation } },
    errors: { 404: 'location not found or inactive' },
  },
  getLocationAvailability: {
    tag: 'Locations',
    summary: 'Free slots of a location',
    description:
      "Every slot from `from` to `to` (dates in the location's time zone, inclusive; default today there and six days later; at most 31 days apart) " +
      'that can be booked now: in the future (at least 30 minutes ahead), inside the hours, not on a closure, with a free seat. Book one with POST /appointments, ' +
      'scheduled_at = its start. A location whose hours are unknown has none.',
    responses: { 200: { description: 'The bookable slots, in order.', schema: Availability } },
    errors: { 404: 'location not found or inactive' },
  },

  listPanels: {
    tag: 'Catalog',
    summary: 'List panels',
    description: 'Every panel that can be attached to an appointment or a home kit order, with its biomarkers.',
    responses: { 200: { description: 'Panels, by name.', schema: list(Panel) } },
  },
  listBiomarkers: {
    tag: 'Catalog',
    summary: 'List biomarkers',
    description: 'Every biomarker that can be attached individually, clinical and genetic.',
    responses: { 200: { description: 'Biomarkers, by id.', schema: list(Biomarker) } },
  },

  createAppointment: {
    tag: 'Appointments',
    summary: 'Book an appointment',
    description:
      'Books a blood draw for a profile at a location; scheduled_at must be the start of a bookable slot there (GET /locations/{id}/availability lists them; 400 says which rule a time breaks). Status on creation: scheduled.',
    responses: {
      201: { description: 'The appointment, the profile embedded without timestamps.', schema: CreatedAppointment, example: examples.createdAppointment },
    },
    errors: {
      404: 'profile or location not found (a location also when inactive)',
      409: 'the profile was erased; the slot is full; the person holds another scheduled appointment overlapping the slot',
      503: CHANGE_NOT_SHOWN,
    },
    requestExample: examples.createAppointmentBody,
  },
  getAppointment: {
    tag: 'Appointments',
    summary: 'Get an appointment',
    description: 'The appointment with embedded profile, panels, individual_biomarkers and shipments.',
    responses: { 200: { description: 'The appointment.', schema: Appointment } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  updateAppointment: {
    tag: 'Appointments',
    summary: 'Reschedule an appointment',
    description:
      'Changes scheduled_at (with a timezone designator) and/or location_id (an existing, active location) until the blood draw is confirmed: ' +
      'the result must be a bookable slot at the location, as for a booking; its seat moves atomically (a full slot: 409, the old seat kept).',
    responses: { 200: { description: 'The updated appointment as in Get Appointment.', schema: Appointment } },
    errors: {
      404: 'appointment, or location not found or inactive',
      409:
        'blood draw already confirmed, or appointment cancelled; the slot is full; the person holds another appointment overlapping it; or ' +
        CHANGED_MEANWHILE,
      503: CHANGE_NOT_SHOWN,
    },
  },
  attachAppointmentPanels: {
    tag: 'Appointments',
    summary: 'Attach panels to an appointment',
    description: 'Adds panels until the blood draw is confirmed; a panel attached twice is kept once.',
    responses: { 200: success },
    errors: { 404: 'appointment or one or more panels not found', 409: 'blood draw already confirmed, or appointment cancelled; or ' + CHANGED_MEANWHILE },
  },
  attachAppointmentBiomarkers: {
    tag: 'Appointments',
    summary: 'Attach individual biomarkers to an appointment',
    description: 'Adds biomarkers until the blood draw is confirmed; a biomarker attached twice is kept once.',
    responses: { 200: success },
    errors: { 404: 'appointment or one or more biomarkers not found', 409: 'blood draw already confirmed, or appointment cancelled; or ' + CHANGED_MEANWHILE },
  },
  confirmAppointment: {
    tag: 'Appointments',
    summary: 'Confirm the blood draw',
    description:
      'Records the blood draw with the sample barcode (status blood_drawn) and triggers the lab order (LabOrderRequested). Confirming again with the same barcode is a safe retry.',
    responses: { 200: { ...success, description: 'The draw is recorded and the lab order triggered.' } },
    errors: {
      404: 'appointment not found',
      409: 'appointment cancelled, already confirmed with another barcode, or the barcode is used by another sample; or ' + CHANGED_MEANWHILE,
    },
    requestExample: examples.confirmBody,
  },
  cancelAppointment: {
    tag: 'Appointments',
    summary: 'Cancel an appointment',
    description: 'Cancels a scheduled appointment with a reason.',
    responses: { 200: { description: 'The cancelled appointment.', schema: Appointment } },
    errors: {
      404: 'appointment not found',
      409: 'the appointment is not scheduled (already cancelled, or the draw confirmed)',
      503: CHANGE_NOT_SHOWN + '; or ' + KEPT_CHANGING,
    },
  },
  pickupAppointments: {
    tag: 'Appointments',
    summary: 'Hand samples to the courier',
    description:
      'Moves appointments with status blood_drawn to in_transit; appointments already in transit or completed are silently skipped. With shipment_id, links them to that shipment.',
    responses: { 200: success },
    errors: {
      404: 'one or more appointments, or the shipment, not found',
      409:
        "one or more appointments not eligible (draw not confirmed, or drawn elsewhere than the shipment's location); the shipment is final; or " +
        CHANGED_MEANWHILE,
    },
    requestExample: examples.pickupBody,
  },
  listProfileAppointments: {
    tag: 'Appointments',
    summary: "List a profile's appointments",
    description: 'Newest first, paged.',
    responses: { 200: { description: 'A page of appointments.', schema: list(AppointmentSummary), ...PAGE } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },

  listAppointmentHistory: {
    tag: 'Appointments',
    summary: "List an appointment's status history",
    description:
      'Every status change, oldest first, creation first: the new status, the one before, when, the source (api, courier, lab, ' +
      'system), the API key id that made it and the reason where there is one. Paged like the other lists. Each entry has its ' +
      'status-change event, written in the same transaction (docs/events/). Resources created before the history existed ' +
      'answer the changes made since.',
    responses: { 200: { description: 'A page of history entries.', schema: list(AppointmentHistoryEntry), ...PAGE } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },

  getAppointmentResults: {
    tag: 'Results',
    summary: "Get an appointment's results",
    description: 'Planned tests appear with status planned, next to received clinical and genetic results and the lab report documents.',
    responses: { 200: { description: 'The results.', schema: AppointmentResults, example: examples.appointmentResults } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  acknowledgeAppointmentResults: {
    tag: 'Results',
    summary: 'Acknowledge critical results',
    description:
      "Records that a clinician saw the critical values: the results' critical.acknowledged_at and acknowledged_by (this key's id). " +
      'Acknowledging again changes nothing; a new critical value resets the acknowledgement.',
    responses: { 200: { description: 'The results, acknowledged.', schema: AppointmentResults } },
    errors: { 404: 'appointment not found', 409: 'no critical value to acknowledge; or a new critical value arrived meanwhile', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsHistory: {
    tag: 'Results',
    summary: 'Every version of the results',
    description:
      'Per reported test, every version the lab sent, newest first: the value shown now (preliminary, final or corrected), then each one it replaced, ' +
      "with when the lab reported it and the report's event_id. A correction never erases the value it corrects.",
    responses: { 200: { description: 'The versions of each reported result.', schema: AppointmentResultsHistory } },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsFhir: {
    tag: 'Results',
    summary: 'Export the results as FHIR R4',
    description:
      'The results as a FHIR R4 Bundle of type collection (application/fhir+json): a minimal Patient (id, name, birthDate, gender), ' +
      'a DiagnosticReport (status partial until every planned test is received, then final; effectiveDateTime the blood draw; issued ' +
      'the last report; the lab report PDFs as presentedForm links to GET /api/v1/documents/{id}), one Observation per received clinical ' +
      'result (LOINC code, valueQuantity in UCUM, the lab range as referenceRange, interpretation H/L/N) and one per genetic result ' +
      '(gene and genotype as components). fullUrls are urn:uuid: references, stable across exports. Same access rules as the results.',
    responses: {
      200: {
        description: 'The FHIR R4 Bundle (validated against the HL7 FHIR R4 JSON schema in the test suite).',
        content: { type: 'application/fhir+json', schema: { type: 'object', description: 'A FHIR R4 Bundle: https://hl7.org/fhir/R4/bundle.html' } },
      },
    },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getAppointmentResultsReport: {
    tag: 'Results',
    summary: 'Download the results report (PDF)',
    description:
      'A PDF the service renders from the results: patient name and birth date, sample date, location, barcode; per biomarker ' +
      'its value and unit, an H/L flag and a bar showing the normal and optimal ranges with a marker at the value; genetic ' +
      'findings in plain words; tests still pending listed as pending; page numbers. Names in Latin, Greek, Cyrillic and CJK ' +
      "scripts render as written. Written in the profile's language (en, de or fi): labels, dates (24.11.2026 in de and fi), " +
      'decimal commas, pending, preliminary, corrected, not performed and the critical legend. Same access rules as the results.',
    responses: {
      200: {
        description: 'The PDF.',
        content: { type: 'application/pdf', schema: { type: 'string', contentMediaType: 'application/pdf' } },
        headers: {
          'Content-Disposition': { description: 'attachment with the file name', required: true },
          'Content-Language': { description: "the language the report is written in: the profile's (en, de or fi)", required: true },
        },
      },
    },
    errors: { 404: 'appointment not found', 503: READ_NOT_RECORDED },
  },
  getDocument: {
    tag: 'Results',
    summary: 'Download a lab report document',
    description:
      'The raw file bytes with their Content-Type (application/pdf). The id comes from the documents array of the results. A file above 4 MiB is answered with a 303 to a presigned URL valid for 60 seconds.',
    responses: {
      200: {
        description: 'The file.',
        content: { type: 'application/pdf', schema: { type: 'string', contentMediaType: 'application/pdf' } },
        headers: { 'Content-Disposition': { description: 'attachment with the file name', required: true } },
      },
      303: {
        description: 'A large file: fetch it from Location (valid 60 seconds, no API key).',
        schema: v.object({ url: v.pipe(v.string(), v.url()) }),
        headers: { Location: { description: 'the presigned download URL', required: true } },
      },
    },
    errors: { 404: 'document not found', 503: READ_NOT_RECORDED },
  },

  createShipment: {
    tag: 'Shipments',
    summary: 'Book a courier pickup',
    description:
      'Books a shipment from a location to the lab: pickup_date a weekday, today or later and at most 90 days ahead, no same-day ' +
      'pickup after 16:00 Europe/Berlin; a window within 09:00–17:00 of at least 2 hours. The id is a random reference.',
    responses: { 201: { description: 'The shipment, without timestamps.', schema: CreatedShipment, example: examples.createdShipment } },
    errors: {
      404: 'location not found or inactive',
      409: 'no courier serves this location',
      503: 'no free shipment reference was found (practically never): retry the request',
    },
    requestExample: examples.createShipmentBody,
  },
  listShipments: {
    tag: 'Shipments',
    summary: 'List shipments',
    description: 'Shipments of the locations accessible to the key, newest first, paged.',
    responses: { 200: { description: 'A page of shipments.', schema: list(Shipment), ...PAGE } },
  },
  listShipmentHistory: {
    tag: 'Shipments',
    summary: "List a shipment's status history",
    description:
      'Every status change, oldest first, creation first: the new status, the one before, when, the source (api, courier, lab, ' +
      'system), the API key id that made it and the reason where there is one. Paged like the other lists. Each entry has its ' +
      'status-change event, written in the same transaction (docs/events/). Resources created before the history existed ' +
      'answer the changes made since.',
    responses: { 200: { description: 'A page of history entries.', schema: list(ShipmentHistoryEntry), ...PAGE } },
    errors: { 404: 'shipment not found' },
  },
  getShipment: {
    tag: 'Shipments',
    summary: 'Get a shipment',
    description: 'The shipment (the id is its reference) and the appointments it carries that the key may see.',
    responses: { 200: { description: 'The shipment.', schema: ShipmentWithAppointments } },
    errors: { 404: 'shipment not found' },
  },
  updateShipment: {
    tag: 'Shipments',
    summary: 'Change the pickup window',
    description: 'Modifies pickup_date, pickup_time_from and/or pickup_time_till before pickup; the create-time rules apply to the result.',
    responses: { 200: { description: 'The updated shipment including created_at and updated_at.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'shipment already picked up or cancelled; or ' + CHANGED_MEANWHILE },
  },
  cancelShipment: {
    tag: 'Shipments',
    summary: 'Cancel a shipment',
    description: 'Cancels a shipment before pickup.',
    responses: { 200: { description: 'The shipment with status cancelled.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'already picked up, delivered or cancelled', 503: KEPT_CHANGING },
  },
  updateShipmentStatus: {
    tag: 'Shipments',
    summary: 'Courier status update',
    description:
      "The logistics provider reports a shipment's progress (shipped, in_transit, delivered, fault). An update older than the last one, or one that changes nothing, answers the shipment unchanged.",
    responses: { 200: { description: 'The shipment.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'a transition the shipment cannot make; or ' + CHANGED_MEANWHILE },
  },

  createHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Order a home kit',
    description: 'Orders a home test kit for a profile, delivered to a test location or an inline address (exactly one of the two).',
    responses: {
      201: { description: 'The order: status pending, updated_at null, no tests yet.', schema: HomeKitOrder },
    },
    errors: { 404: 'profile, or the delivery location, not found', 409: 'the profile was erased', 503: CHANGE_NOT_SHOWN },
    requestExample: examples.createHomeKitOrderBody,
  },
  listHomeKitOrderHistory: {
    tag: 'Home kit orders',
    summary: "List a home kit order's status history",
    description:
      'Every status change, oldest first, creation first: the new status, the one before, when, the source (api, courier, lab, ' +
      'system), the API key id that made it and the reason where there is one. Paged like the other lists. Each entry has its ' +
      'status-change event, written in the same transaction (docs/events/). Resources created before the history existed ' +
      'answer the changes made since.',
    responses: { 200: { description: 'A page of history entries.', schema: list(HomeKitOrderHistoryEntry), ...PAGE } },
    errors: { 404: 'order not found', 503: READ_NOT_RECORDED },
  },
  getHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Get a home kit order',
    description: 'The order with its embedded profile and attached tests.',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 503: READ_NOT_RECORDED },
  },
  cancelHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Cancel a home kit order',
    description: 'Sets the status of a pending or dispatched order to cancelled.',
    responses: { 200: { description: 'The cancelled order with embedded profile.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 409: 'the order is activated or already cancelled', 503: CHANGE_NOT_SHOWN + '; or ' + KEPT_CHANGING },
  },
  attachHomeKitOrderPanels: {
    tag: 'Home kit orders',
    summary: 'Attach panels to a home kit order',
    description: 'Adds panels while the order is pending (at most 90 tests per kit).',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: { 404: 'order or one or more panels not found', 409: 'the order is no longer pending; or ' + CHANGED_MEANWHILE, 503: CHANGE_NOT_SHOWN },
  },
  attachHomeKitOrderBiomarkers: {
    tag: 'Home kit orders',
    summary: 'Attach individual biomarkers to a home kit order',
    description: 'Adds biomarkers while the order is pending (at most 90 tests per kit).',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: { 404: 'order or one or more biomarkers not found', 409: 'the order is no longer pending; or ' + CHANGED_MEANWHILE, 503: CHANGE_NOT_SHOWN },
  },
  dispatchHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Dispatch a home kit',
    description: 'Records that the kit left the warehouse, with its tracking number.',
    responses: { 200: { description: 'The dispatched order.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 409: 'the order is not pending, or has no tests', 503: CHANGE_NOT_SHOWN + '; or ' + KEPT_CHANGING },
  },
  activateHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Activate a home kit',
    description:
      "The person registers the kit's sample barcode: the order becomes activated and an appointment (test_method home, status blood_drawn) carries its tests to the lab. Activating again with the same barcode is a safe retry.",
    responses: { 200: { description: 'The activated order, with appointment_id.', schema: HomeKitOrder } },
    errors: {
      404: 'order not found',
      409: 'the kit is not dispatched, is activated with another barcode, or the barcode is used by another sample; or ' + CHANGED_MEANWHILE,
      503: CHANGE_NOT_SHOWN,
    },
  },
  listProfileHomeKitOrders: {
    tag: 'Home kit orders',
    summary: "List a profile's home kit orders",
    description: 'Newest first, paged.',
    responses: { 200: { description: 'A page of orders.', schema: list(HomeKitOrder), ...PAGE } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },
  listProfileAccessLog: {
    tag: 'Profiles',
    summary: "List who read a person's data",
    description:
      "The access log of a profile, newest first, paged: one entry per successful read of the person's data (the profile, its " +
      'lists, an appointment and its history, results in every form, a document, a home kit order and its history, the export): when, ' +
      'the API key id, the operation, what was shown (by id, never a value), the request id and the source address. A read is answered ' +
      'only once its entry is stored. Entries are kept AUDIT_RETENTION_DAYS (default 730 days), then deleted by DynamoDB TTL. ' +
      'Reading the access log is not itself logged.',
    responses: { 200: { description: 'A page of access-log entries.', schema: list(AccessLogEntry), ...PAGE } },
    errors: { 404: 'profile not found' },
  },

  createWebhook: {
    tag: 'Webhooks',
    summary: 'Subscribe to events',
    description:
      'Creates a subscription of this API key: every event of the listed types about a resource the key may read (its scopes and ' +
      'its profile and location groups, checked again at each delivery) is POSTed to the url as `{type, timestamp, data}`, `data` ' +
      'being the event detail of docs/events/ (ids and statuses only). Signed with the secret of this answer, which no other answer shows. ' +
      'At most 10 subscriptions per key. A failed delivery (no 2xx within 10 s) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.',
    responses: { 201: { description: 'The subscription, enabled, with its signing secret.', schema: WebhookWithSecret } },
    errors: {
      403: 'the key lacks the scope to read one of the event types',
      409: 'the key already has 10 subscriptions',
    },
  },
  listWebhooks: {
    tag: 'Webhooks',
    summary: "List this key's subscriptions",
    description: 'The subscriptions this API key created, oldest first (at most 10). Secrets are never shown.',
    responses: { 200: { description: 'The subscriptions.', schema: list(Webhook) } },
  },
  getWebhook: {
    tag: 'Webhooks',
    summary: 'Get a subscription',
    description: 'A subscription of this API key, with its status and, when disabled, why.',
    responses: { 200: { description: 'The subscription.', schema: Webhook } },
    errors: { 404: 'webhook not found' },
  },
  updateWebhook: {
    tag: 'Webhooks',
    summary: 'Change a subscription',
    description:
      'Changes the url, event types, description or status. Enabling a disabled subscription clears its failure count; ' +
      'deliveries that failed meanwhile can be retried from the delivery log.',
    responses: { 200: { description: 'The changed subscription.', schema: Webhook } },
    errors: { 403: 'the key lacks the scope to read one of the event types', 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  deleteWebhook: {
    tag: 'Webhooks',
    summary: 'Delete a subscription',
    description: 'No further deliveries; scheduled retries end as failed. The delivery log expires with its 30-day retention.',
    responses: { 200: success },
    errors: { 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  rotateWebhookSecret: {
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'A new secret signs from now on. For 24 hours the previous one signs too (webhook-signature then carries both signatures), ' +
      'so a receiver verifies with either while the new secret is deployed.',
    responses: { 200: { description: 'The subscription and its new secret, shown this once.', schema: WebhookWithSecret } },
    errors: { 404: 'webhook not found', 409: CHANGED_MEANWHILE },
  },
  sendTestWebhook: {
    tag: 'Webhooks',
    summary: 'Send a test webhook',
    description:
      'Sends a `webhook.test` event to the subscription now and answers the delivery after its first attempt: outcome, the ' +
      "receiver's status code or why there was none. A failed test is retried like any delivery.",
    responses: { 200: { description: 'The delivery after its first attempt.', schema: WebhookDelivery } },
    errors: { 404: 'webhook not found', 409: 'the subscription is disabled' },
  },
  listWebhookDeliveries: {
    tag: 'Webhooks',
    summary: 'List deliveries',
    description: 'The delivery log of a subscription, newest first, paged: event, attempts, last status code, next attempt, outcome. Kept 30 days.',
    responses: { 200: { description: 'A page of deliveries.', schema: list(WebhookDelivery), ...PAGE } },
    errors: { 404: 'webhook not found' },
  },
  retryWebhookDelivery: {
    tag: 'Webhooks',
    summary: 'Retry a delivery',
    description:
      'Sends a delivery again now, with the same webhook-id and body: after a failed one once the endpoint is fixed, or a ' +
      'succeeded one to replay it. Answers the delivery after the attempt.',
    responses: { 200: { description: 'The delivery after this attempt.', schema: WebhookDelivery } },
    errors: { 404: 'webhook or delivery not found', 409: 'the subscription is disabled, or an attempt of this delivery is in flight' },
  },
  listEvents: {
    tag: 'Events',
    summary: 'List events',
    description:
      'The events this key could receive by webhook (its scopes receive the type, its groups hold the resource), whether or not it subscribed, ' +
      'newest first, paged; each `{id, type, timestamp, data}` exactly as the webhook body, with its id (the webhook-id of its deliveries). ' +
      '`type`, `after` and `before` narrow the list. Kept 30 days: a client that was down replays from here. A sandbox key reads the sandbox events.',
    responses: { 200: { description: 'A page of events.', schema: EventLogEntries, ...PAGE } },
    errors: { 403: 'the key lacks WEBHOOKS_MANAGE, or the scopes to receive any event type' },
  },
  getEvent: {
    tag: 'Events',
    summary: 'Get an event',
    description: 'One event of the log, as its webhook body with its id.',
    responses: { 200: { description: 'The event.', schema: EventLogEntry } },
    errors: {
      403: "the key lacks WEBHOOKS_MANAGE or the scopes to receive any event type; or the event is another tenant's, or of a type its scopes do not receive",
      404: 'event not found (or older than 30 days)',
    },
  },
  simulateSandboxResults: {
    tag: 'Sandbox',
    summary: "Simulate the lab's answer",
    description:
      "For sandbox keys only (lab_test_…): the lab's answer to a sandbox appointment whose blood draw is confirmed, stored by the same ingest as a " +
      'real lab report, so its results, statuses, events and webhooks follow as they would. Outcomes: normal, partial, critical, rejected, corrected ' +
      '(a correction of the first clinical value, after a normal report when none was final). Answers the results as GET /appointments/{id}/results does.',
    responses: { 200: { description: 'The results after the simulated report.', schema: AppointmentResults } },
    errors: {
      403: 'a live key (only a sandbox key may simulate the lab)',
      404: 'appointment not found',
      409: 'the blood draw is not confirmed; or the outcome needs a clinical test the appointment does not plan',
      503: READ_NOT_RECORDED,
    },
  },
} as const satisfies Record<RouteName, OperationDoc>;

export type Operations = typeof operations;
