/**
 * One attempt to deliver a sample's order to the lab's interface engine (issue #51): the consumer of
 * LabOrderRequested, in AWS (functions/events/lab-order-sender.ts, one SQS message per attempt) and in the
 * local stack (infra/local/lab-order-pipeline.ts, a timer per retry) alike.
 *
 * It reads the sample as stored now, marks its order pending at the first attempt, builds the OML^O21
 * message from the requisition kept with it (shared/hl7/oml-o21.ts: what the form and the FHIR order show)
 * and sends it over MLLP. The lab's AA/CA makes it accepted, AE/AR/CE/CR refused with the lab's reason, each
 * with its event in one transaction (commit); no answer is retried on the schedule the caller applies, and
 * after its last attempt the order is failed (LabOrderFailed) and the caller parks the message (the DLQ).
 * Every attempt sends the same control id (the requisition number's), so the lab's engine takes the
 * order once however often it arrives; an order already answered is never sent again.
 *
 * Two attempts may run at once (two deliveries of one SQS message, two events for one order): before sending,
 * an attempt takes the order's short lease (lab_order.sending_until, ACK deadline + LEASE_MARGIN_MS), and one
 * that finds it held sends nothing (in-flight). An answer recorded by another attempt first is that
 * attempt's answer, never a failure of this one. A person erased before the order was sent is not sent at
 * all: the order is failed (LabOrderFailed) with ERASED_BEFORE_SENT.
 */
import { config, requireSetting } from '../config';
import { controlIdOf, LAB_ORDER_RETRY, type LabOrderState, retryDelayMs, type RetrySchedule, scaledSchedule } from '../domain/lab-order';
import { labOrderStatusChanged, type AnsweredStatus } from '../events/lab-order-status';
import { type MllpTarget, MllpNoAnswer, sendMllp } from '../hl7/mllp';
import { omlO21, type OrderParties } from '../hl7/oml-o21';
import { logger } from '../logger';
import { type AppointmentRecord } from '../store/appointments/records';
import { labOrderChange, type LabOrderHolders, getSample, leaseLabOrder, noteLabOrderAttempt, startLabOrder } from '../store/lab-orders';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { transactedIf } from '../store/transactions';
import { commit } from './commit';

export interface LabInterface {
  target: MllpTarget;
  parties: OrderParties;
  /** How long one attempt waits for the ACK, connecting included. */
  ackTimeoutMs: number;
  schedule: RetrySchedule;
}

/** What the LabOrderRequested event names: the sample and the requisition it was ordered under. */
export interface OrderToSend {
  appointment_id: string;
  requisition_number: string;
}

export type AttemptOutcome =
  /** The lab answered (now, or an earlier attempt did): nothing more to do. */
  | { kind: 'answered'; status: 'accepted' | 'refused' }
  /** No answer: try again after `afterMs`. */
  | { kind: 'retry'; afterMs: number; reason: string }
  /** Another attempt holds the order's lease and is sending it now: nothing sent; look again after `afterMs` (its lease's end). */
  | { kind: 'in-flight'; afterMs: number }
  /** No answer at the last attempt: the order is failed; the message is parked for a redrive. */
  | { kind: 'failed'; reason: string }
  /** Nothing to send: no such sample, its requisition is another one (the event is stale), or its person was erased. */
  | { kind: 'skipped'; reason: string };

/** The lease outlasts the ACK deadline by this much: the attempt's own reads and writes around the send. */
export const LEASE_MARGIN_MS = 5_000;

/** Why an order is failed unsent: its person was erased before an attempt reached the lab. */
export const ERASED_BEFORE_SENT = "the person's data was erased before the order was sent";

type Answered = LabOrderState & { status: 'accepted' | 'refused' };
const isAnswered = (state: LabOrderState): state is Answered => state.status === 'accepted' || state.status === 'refused';
const answered = (state: Answered): AttemptOutcome => ({ kind: 'answered', status: state.status });

/** Attempt number `attempt` (1 is the first; a redrive starts at 1 again) to deliver `order`. */
export async function sendLabOrder(order: OrderToSend, attempt: number, lab: LabInterface, now: () => Date): Promise<AttemptOutcome> {
  const current = await currentOrder(order);
  if ('kind' in current) return current;
  const { sample, controlId, from } = current;
  if (isAnswered(from)) return answered(from);

  const profile = await getExistingProfile(sample.profile_id);
  if (profile.erased_at !== undefined) return erasedBeforeSent(current, now);
  const startedAt = now();
  const until = new Date(startedAt.getTime() + lab.ackTimeoutMs + LEASE_MARGIN_MS).toISOString();
  if (!(await leaseLabOrder(sample.id, startedAt.toISOString(), until))) return heldElsewhere(sample.id, now);

  const message = orderMessage(sample, profile, controlId, lab.parties, startedAt);
  let answer;
  try {
    answer = await sendMllp(lab.target, message, controlId, lab.ackTimeoutMs);
  } catch (error) {
    if (!(error instanceof MllpNoAnswer)) throw error;
    return noAnswer(current, attempt, error.message, lab.schedule, now);
  }
  const at = now().toISOString();
  const status = answer.accepted ? 'accepted' : 'refused';
  const recorded = await recordChange(current, { status, acknowledged_at: at, error: answer.accepted ? null : answer.text }, at);
  logger.info('lab order answered', { appointment_id: sample.id, control_id: controlId, attempt, ack_code: answer.code, recorded });
  // Lost: another attempt recorded its answer first (the lab's engine took the control id once); that one stands.
  return (!recorded && (await storedAnswer(sample.id))) || { kind: 'answered', status };
}

/**
 * The last attempt ended in a failure of our own (DynamoDB, a missing profile: the caller caught it): the
 * order is failed with LabOrderFailed, as after a last attempt without an answer, rather than left pending
 * while its message waits in the dead-letter queue. Nothing is written for an order answered or failed already.
 */
export async function failLabOrder(order: OrderToSend, reason: string, now: () => Date): Promise<AttemptOutcome> {
  const current = await currentOrder(order);
  if ('kind' in current) return current;
  if (isAnswered(current.from)) return answered(current.from);
  if (current.from.status === 'pending') {
    const at = now().toISOString();
    if (!(await recordChange(current, { status: 'failed', acknowledged_at: null, error: reason }, at)))
      return (await storedAnswer(current.sample.id)) ?? { kind: 'failed', reason };
  }
  return { kind: 'failed', reason };
}

interface Sent {
  sample: AppointmentRecord;
  holders: LabOrderHolders;
  controlId: string;
  /** The order's state when this attempt started. */
  from: LabOrderState;
}

/** The sample and its order's state as stored now, marked pending at the first attempt; or why there is nothing to send. */
async function currentOrder(order: OrderToSend): Promise<Sent | AttemptOutcome> {
  const sample = await getSample(order.appointment_id);
  if (!sample) return skipped(order, 'no such appointment');
  if (sample.requisition?.number !== order.requisition_number) return skipped(order, 'the appointment holds another requisition');
  const holders: LabOrderHolders = { appointmentId: sample.id, homeKitOrderId: sample.home_kit_order_id ?? null };
  const controlId = controlIdOf(order.requisition_number);
  let state = sample.lab_order;
  if (!state) {
    const pending: LabOrderState & { status: 'pending' } = { status: 'pending', message_control_id: controlId, acknowledged_at: null, error: null };
    // Lost to a racing delivery of the same event: go on from what it wrote.
    state = (await startLabOrder(holders, pending)) ? pending : (await getSample(sample.id))?.lab_order;
  }
  if (!state) return skipped(order, 'the appointment is gone');
  return { sample, holders, controlId, from: state };
}

/** The order's answer as stored now, when another attempt recorded one. */
async function storedAnswer(appointmentId: string): Promise<AttemptOutcome | undefined> {
  const state = (await getSample(appointmentId))?.lab_order;
  return state && isAnswered(state) ? answered(state) : undefined;
}

/** The lease was not ours: the order was answered meanwhile, or another attempt is sending it until its lease ends. */
async function heldElsewhere(appointmentId: string, now: () => Date): Promise<AttemptOutcome> {
  const state = (await getSample(appointmentId))?.lab_order;
  if (state && isAnswered(state)) return answered(state);
  const left = Date.parse(state?.sending_until ?? '') - now().getTime();
  logger.info('lab order in flight: another attempt is sending it', { appointment_id: appointmentId, lease_left_ms: Number.isFinite(left) ? left : null });
  // An expired lease (or none: the status changed meanwhile) is looked at again a second later.
  return { kind: 'in-flight', afterMs: Number.isFinite(left) && left > 0 ? left : 1000 };
}

/** The person was erased before the order reached the lab: nothing is sent; a pending order becomes failed, with its event. */
async function erasedBeforeSent(sent: Sent, now: () => Date): Promise<AttemptOutcome> {
  if (sent.from.status === 'pending') {
    const at = now().toISOString();
    await recordChange(sent, { status: 'failed', acknowledged_at: null, error: ERASED_BEFORE_SENT }, at);
  }
  return skipped({ appointment_id: sent.sample.id, requisition_number: sent.sample.requisition!.number }, ERASED_BEFORE_SENT);
}

async function noAnswer(sent: Sent, attempt: number, reason: string, schedule: RetrySchedule, now: () => Date): Promise<AttemptOutcome> {
  const afterMs = retryDelayMs(attempt, schedule);
  logger.warn('lab order not acknowledged', { appointment_id: sent.sample.id, control_id: sent.controlId, attempt, reason, retry_after_ms: afterMs ?? null });
  // A failed order being redriven stays failed until the lab answers: no second LabOrderFailed.
  const recorded =
    afterMs !== undefined || sent.from.status === 'failed'
      ? await noteLabOrderAttempt(sent.holders, reason)
      : await recordChange(sent, { status: 'failed', acknowledged_at: null, error: reason }, now().toISOString());
  // Lost: another attempt recorded the lab's answer meanwhile: the order is answered, not failed (nor to retry).
  const answer = recorded ? undefined : await storedAnswer(sent.sample.id);
  if (answer) return answer;
  return afterMs === undefined ? { kind: 'failed', reason } : { kind: 'retry', afterMs, reason };
}

/** The order's new state and its event, in one transaction; false when another attempt recorded an answer first. */
async function recordChange(
  sent: Sent,
  change: { status: AnsweredStatus; acknowledged_at: string | null; error: string | null },
  at: string,
): Promise<boolean> {
  const state = { ...change, message_control_id: sent.controlId };
  const { sample } = sent;
  const event = labOrderStatusChanged(
    {
      appointment_id: sample.id,
      home_kit_order_id: sent.holders.homeKitOrderId,
      profile_id: sample.profile_id,
      profile_group_slug: sample.profile_group_slug,
      requisition_number: sample.requisition!.number,
      message_control_id: sent.controlId,
    },
    sent.from.status,
    change.status,
    at,
  );
  return transactedIf(commit({ transitions: [], items: labOrderChange(sent.holders, state), events: [event], writtenAt: at }));
}

/** The OML^O21 of the sample's requisition, as the person's profile reads now. */
function orderMessage(sample: AppointmentRecord, profile: ProfileRecord, controlId: string, parties: OrderParties, sentAt: Date): string {
  const requisition = sample.requisition!;
  return omlO21({
    controlId,
    sentAt,
    parties,
    patient: { id: profile.id, familyName: profile.last_name, givenName: profile.first_name, birthDate: profile.date_of_birth, sex: profile.sex },
    barcode: sample.barcode ?? '',
    requisitionNumber: requisition.number,
    orderedAt: requisition.created_at,
    collectedAt: sample.blood_drawn_at ?? requisition.created_at,
    tests: requisition.tests,
  });
}

function skipped(order: OrderToSend, reason: string): AttemptOutcome {
  logger.warn('lab order not sent', { appointment_id: order.appointment_id, reason });
  return { kind: 'skipped', reason };
}

/** How long one attempt waits for the lab's ACK, connecting included: engines answer in seconds, or not at all. */
export const ACK_TIMEOUT_MS = 30_000;

/** The lab interface of the stage (shared/config.ts LAB_*): required where the sender runs, checked when it loads. */
export function configuredLabInterface(): LabInterface {
  const settings = config.labInterface;
  return {
    target: {
      host: requireSetting(settings.host, 'LAB_MLLP_HOST'),
      port: requireSetting(settings.port, 'LAB_MLLP_PORT'),
      tls: settings.tls,
      ...(settings.ca !== undefined && { ca: settings.ca }),
    },
    parties: {
      sendingFacility: requireSetting(settings.sendingFacility, 'LAB_SENDING_FACILITY'),
      receivingApplication: requireSetting(settings.receivingApplication, 'LAB_RECEIVING_APPLICATION'),
      receivingFacility: requireSetting(settings.receivingFacility, 'LAB_RECEIVING_FACILITY'),
    },
    ackTimeoutMs: ACK_TIMEOUT_MS,
    schedule: scaledSchedule(LAB_ORDER_RETRY, settings.retryScale),
  };
}
