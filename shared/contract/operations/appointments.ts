/** What the appointment routes answer: booking, tests, the draw, the pickup, a profile's list, the history. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { Appointment, AppointmentSummary, CreatedAppointment } from '../../schemas/appointments';
import { AppointmentHistoryEntry } from '../../schemas/history';
import { PatientLink } from '../../schemas/patient-page';
import * as examples from '../examples';
import {
  CHANGE_NOT_SHOWN,
  CHANGED_MEANWHILE,
  KEPT_CHANGING,
  list,
  type OperationDoc,
  PAGE,
  READ_NOT_RECORDED,
  REQUISITION_PDF,
  success,
  UNCOLLECTABLE,
} from '../operation-doc';

export const appointmentsOperations = {
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
    description:
      'The appointment with embedded profile, panels, individual_biomarkers and shipments, and what its tests ask: preparation ' +
      "(in the profile's language) and specimens_to_collect.",
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
    errors: {
      400: UNCOLLECTABLE('panel', 'appointment'),
      404: 'appointment or one or more panels not found',
      409: 'blood draw already confirmed, or appointment cancelled; or ' + CHANGED_MEANWHILE,
    },
  },
  attachAppointmentBiomarkers: {
    tag: 'Appointments',
    summary: 'Attach individual biomarkers to an appointment',
    description: 'Adds biomarkers until the blood draw is confirmed; a biomarker attached twice is kept once.',
    responses: { 200: success },
    errors: {
      400: UNCOLLECTABLE('biomarker', 'appointment'),
      404: 'appointment or one or more biomarkers not found',
      409: 'blood draw already confirmed, or appointment cancelled; or ' + CHANGED_MEANWHILE,
    },
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
  getAppointmentRequisition: {
    tag: 'Appointments',
    summary: 'Download the requisition form (PDF)',
    description:
      'The form that travels with the sample to the lab, once the blood draw is confirmed (or the home kit activated), in English whatever the ' +
      "profile's language: the requisition number and the sample barcode, each as text and as a Code 128 barcode; the patient's name, date of " +
      "birth and sex (what an erasure left: none of them); when the sample was taken (UTC, and the location's time) and where (the location, or " +
      'Home test kit); the ordering party (the clinic or partner whose patient it is: no physician is recorded); one row per test as ordered at the ' +
      'draw, with its LOINC code, name, specimen type, container and least volume. A4, more pages when the tests need them. docs/orders.md.',
    responses: { 200: REQUISITION_PDF },
    errors: {
      404: 'appointment not found',
      409: 'no requisition: the draw is not confirmed (or the appointment was cancelled), or the sample was drawn before requisitions existed',
      503: READ_NOT_RECORDED,
    },
  },
  createPatientLink: {
    tag: 'Appointments',
    summary: 'Issue a patient link to the appointment',
    description:
      'A link the patient can hold (issue #53, docs/patient-page.md): `url` opens a page of this one appointment (its time, place, preparation and ' +
      'status; reschedule and cancel while it is at least 2 hours away), no API key needed: the token in it is the credential, 32 random bytes of ' +
      "which only the SHA-256 is stored. It expires at the end of the appointment's slot or 30 days after issue, whichever is first; a moved " +
      'appointment moves that end. Older links keep working unless `revoke_previous` is true: they answer 404 from then on. The body may be left out.',
    responses: { 201: { description: 'The link; hand it to the patient only.', schema: PatientLink } },
    errors: {
      404: 'appointment not found',
      409: "a home kit's appointment (no time or place: links are for appointments at a location); or " + CHANGED_MEANWHILE,
    },
    requestExample: { revoke_previous: false },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
