/**
 * The JSON Schemas of the events other systems consume, generated from the valibot schemas the code
 * uses, so the documents in docs/events/ cannot drift (test/unit/event-schemas.test.ts compares them).
 *
 *   npm run docs:events     rewrites docs/events/*.schema.json
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { APPOINTMENT_RESCHEDULED } from '../../shared/events/appointment-rescheduled';
import { AppointmentRescheduledDetail } from '../../shared/events/appointment-rescheduled-detail';
import { LAB_ORDER_REQUESTED, LabOrderRequestedDetail, LabOrderRequestedDetailV1 } from '../../shared/events/lab-order-requested';
import { EVENT_SOURCE } from '../../shared/events/event-source';
import {
  LAB_ORDER_ACCEPTED,
  LAB_ORDER_FAILED,
  LAB_ORDER_REFUSED,
  LabOrderAcceptedDetail,
  LabOrderFailedDetail,
  LabOrderRefusedDetail,
} from '../../shared/events/lab-order-status';
import { CRITICAL_RESULT_REPORTED, CriticalResultReportedDetail } from '../../shared/events/critical-result-reported';
import { LAB_RESULTS_AVAILABLE, LabResultsAvailableDetail } from '../../shared/events/lab-results-available';
import { SPECIMEN_REJECTED, SpecimenRejectedDetail } from '../../shared/events/specimen-rejected';
import { LAB_RESULTS_CORRECTED, LAB_RESULTS_UPDATED, LabResultsCorrectedDetail, LabResultsUpdatedDetail } from '../../shared/events/lab-results-updated';
import { LAB_PARTNER_SOURCE, LAB_RESULTS_REPORTED, LabResultsReportedDetail } from '../../shared/events/lab-results-reported';
import { APPOINTMENT_STATUS_CHANGED, HOME_KIT_ORDER_STATUS_CHANGED, SHIPMENT_STATUS_CHANGED } from '../../shared/events/status-changed';
import { AppointmentStatusChangedDetail, HomeKitOrderStatusChangedDetail, ShipmentStatusChangedDetail } from '../../shared/events/status-changed-details';

export const EVENTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/events');

interface PublishedEvent {
  file: string;
  source: string;
  detailType: string;
  /** What it announces, in one sentence: its description's first, and the guide's "when" (npm run docs:guides). */
  when: string;
  /** `when`, then what a consumer must know besides. */
  description: string;
  detail: GenericSchema;
}

/** An event whose description is its `when` followed by `more`, so the sentence the guide shows is written once. */
const published = ({ more, ...event }: Omit<PublishedEvent, 'description'> & { more: string }): PublishedEvent => ({
  ...event,
  description: `${event.when} ${more}`,
});

export const PUBLISHED_EVENTS: PublishedEvent[] = [
  published({
    file: 'lab-order-requested.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_ORDER_REQUESTED,
    when: 'A sample exists (a blood draw was confirmed, or a home kit activated) and the lab should test it.',
    more:
      'schema_version 2: the requisition number and each test with its LOINC code and specimen. A detail without schema_version is version 1 ' +
      '(lab-order-requested.v1.schema.json); a consumer dispatches on schema_version. Delivered at least once: drop duplicates by event_id.',
    detail: LabOrderRequestedDetail,
  }),
  published({
    file: 'lab-order-accepted.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_ORDER_ACCEPTED,
    when: "The lab's interface engine acknowledged a sample's order message (HL7 v2 OML^O21 over MLLP) with AA: the order is in its system.",
    more:
      "from_status failed when a redrive of a failed order reached it. home_kit_order_id names the home kit of a kit's sample (null for a draw). " +
      'Ids, statuses and the control id only. Delivered at least once: drop duplicates by event_id.',
    detail: LabOrderAcceptedDetail,
  }),
  published({
    file: 'lab-order-refused.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_ORDER_REFUSED,
    when: "The lab's interface engine refused a sample's order message (AE or AR): it will not test the sample as ordered until someone acts.",
    more:
      "The lab's reason is in the appointment's (and kit's) lab_order.error, never in the event. Ids, statuses and the control id only. " +
      'Delivered at least once: drop duplicates by event_id.',
    detail: LabOrderRefusedDetail,
  }),
  published({
    file: 'lab-order-failed.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_ORDER_FAILED,
    when: "A sample's order message got no answer from the lab's interface engine after every attempt of the retry schedule (3¾ hours).",
    more:
      "The message waits in the sender's dead-letter queue, which alarms; a redrive that reaches the lab then publishes LabOrderAccepted or " +
      'LabOrderRefused. Ids, statuses and the control id only. Delivered at least once.',
    detail: LabOrderFailedDetail,
  }),
  published({
    file: 'lab-results-available.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_RESULTS_AVAILABLE,
    when:
      'Every planned result of an appointment is in and the appointment is completed, with at least one value to read: a draw whose every test ' +
      'was rejected publishes SpecimenRejected and the completion (AppointmentStatusChanged) instead, never this.',
    more: 'Delivered at least once.',
    detail: LabResultsAvailableDetail,
  }),
  published({
    file: 'lab-results-updated.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_RESULTS_UPDATED,
    when: 'A lab report added or changed results of an appointment (preliminary ones included): which tests, and their status now.',
    more: 'Ids and statuses only, never a value: read GET /api/v1/appointments/{id}/results. Delivered at least once: drop duplicates by event_id.',
    detail: LabResultsUpdatedDetail,
  }),
  published({
    file: 'lab-results-corrected.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_RESULTS_CORRECTED,
    when: 'The lab corrected a final result: which tests.',
    more:
      'The value it replaced stays in GET /api/v1/appointments/{id}/results/history. Ids only, never a value. ' +
      'Delivered at least once: drop duplicates by event_id.',
    detail: LabResultsCorrectedDetail,
  }),
  published({
    file: 'critical-result-reported.schema.json',
    source: EVENT_SOURCE,
    detailType: CRITICAL_RESULT_REPORTED,
    when:
      "A lab report brought a value beyond its biomarker's critical limits (or the lab flagged it critical): a clinician must see it at once " +
      'and acknowledge it (POST /api/v1/appointments/{id}/results/acknowledge).',
    more: 'Ids and biomarker ids only, never a value. Delivered at least once.',
    detail: CriticalResultReportedDetail,
  }),
  published({
    file: 'specimen-rejected.schema.json',
    source: EVENT_SOURCE,
    detailType: SPECIMEN_REJECTED,
    when:
      'The lab could not test a specimen, whole or for named tests: those tests are not_performed and the person must be drawn again ' +
      '(POST /api/v1/appointments with recollection_of).',
    more: 'Ids, biomarker ids and the reason code only. Delivered at least once.',
    detail: SpecimenRejectedDetail,
  }),
  published({
    file: 'appointment-status-changed.schema.json',
    source: EVENT_SOURCE,
    detailType: APPOINTMENT_STATUS_CHANGED,
    when:
      'An appointment changed status (created scheduled, or blood_drawn by a home kit activation; blood_drawn, in_transit, ' +
      'completed, cancelled): one event per entry of GET /api/v1/appointments/{id}/history, written in the same transaction.',
    more: 'Ids and statuses only. Delivered at least once: drop duplicates by event_id.',
    detail: AppointmentStatusChangedDetail,
  }),
  published({
    file: 'appointment-rescheduled.schema.json',
    source: EVENT_SOURCE,
    detailType: APPOINTMENT_RESCHEDULED,
    when:
      'A scheduled appointment moved to another slot, at its location or another one (PATCH /api/v1/appointments/{id}): from and to, ' +
      'each its scheduled_at and location_id, written in the same transaction as the move.',
    more:
      'A PATCH that leaves both as they were, and a move that is refused (a full slot), publish nothing. Its status stays scheduled, so no ' +
      'AppointmentStatusChanged comes with it. Ids, instants and the tenant only; actor is the API key id, as in the history. ' +
      'Delivered at least once: drop duplicates by event_id.',
    detail: AppointmentRescheduledDetail,
  }),
  published({
    file: 'home-kit-order-status-changed.schema.json',
    source: EVENT_SOURCE,
    detailType: HOME_KIT_ORDER_STATUS_CHANGED,
    when:
      'A home kit order changed status (created pending; dispatched, activated, cancelled): one event per entry of ' +
      'GET /api/v1/home-kit-orders/{id}/history.',
    more: 'Ids and statuses only. Delivered at least once.',
    detail: HomeKitOrderStatusChangedDetail,
  }),
  published({
    file: 'shipment-status-changed.schema.json',
    source: EVENT_SOURCE,
    detailType: SHIPMENT_STATUS_CHANGED,
    when:
      'A shipment changed status (created pending; shipped, in_transit, delivered or fault by the courier; cancelled): one ' +
      'event per entry of GET /api/v1/shipments/{id}/history.',
    more: 'Delivered at least once.',
    detail: ShipmentStatusChangedDetail,
  }),
  published({
    file: 'lab-results-reported.schema.json',
    source: LAB_PARTNER_SOURCE,
    detailType: LAB_RESULTS_REPORTED,
    when: 'Sent BY the lab: results of an appointment (by appointment_id or barcode; a barcode no drawn order holds is kept as an unmatched result).',
    more:
      "Upload report files to the documents bucket's incoming/ prefix first. The same event_id twice is stored once; a report older than the " +
      'stored one (tested_at, then reported_at) does not replace it. An unknown appointment_id or biomarker is refused; a barcode no drawn ' +
      'order holds is kept 90 days as an unmatched result for matching by hand, with the patient the report may name (docs/hl7.md).',
    detail: LabResultsReportedDetail,
  }),
];

/**
 * Earlier versions of a published event's detail, no longer sent: their schemas stay published (unchanged) for
 * consumers that validate against them until they move to the current one.
 */
export const SUPERSEDED_EVENTS: PublishedEvent[] = [
  {
    file: 'lab-order-requested.v1.schema.json',
    source: EVENT_SOURCE,
    detailType: LAB_ORDER_REQUESTED,
    when: 'A sample exists (a blood draw was confirmed, or a home kit activated) and the lab should test it.',
    description:
      'Version 1, sent until issue #50 (no schema_version field). Superseded by schema_version 2 (lab-order-requested.schema.json): ' +
      'the same fields, and the requisition number and tests.',
    detail: LabOrderRequestedDetailV1,
  },
];

/** file name → JSON text of the schema of the event's `detail`, with its EventBridge source and type. */
export function eventSchemaDocuments(): Map<string, string> {
  return new Map(
    [...PUBLISHED_EVENTS, ...SUPERSEDED_EVENTS].map((event) => {
      const schema = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        title: `${event.detailType} detail`,
        description: `${event.description} EventBridge source "${event.source}", detail-type "${event.detailType}".`,
        // Custom checks (a real calendar date, appointment_id or barcode) cannot be expressed; the descriptions say them.
        ...toJsonSchema(event.detail, { errorMode: 'ignore' }),
      };
      return [event.file, `${JSON.stringify(schema, null, 2)}\n`];
    }),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, text] of eventSchemaDocuments()) {
    writeFileSync(join(EVENTS_DIR, file), text);
    console.log(`wrote docs/events/${file}`);
  }
}
