/**
 * The patient's emails (issue #52, docs/messages.md): which events make which message, whether the person
 * may be written to, and the one send. Called by the message consumer (functions/events/patient-messages.ts,
 * an SQS queue the bus feeds) and the reminder sweep (functions/events/message-reminders.ts); in the local
 * stack by infra/local/email-pipeline.ts with the same code.
 *
 * Sent once: each message is keyed by the event it answers and its type (domain/messages.ts), and claimed
 * by a conditional write before SES is called (shared/store/messages.ts). A redelivered event, a redriven
 * queue or two consumers find it claimed or decided and send nothing. The one window left is the SES call
 * itself: a consumer that dies after SES took the message and before the claim says "sent" leaves it
 * pending, and once its claim expires (CLAIM_MS) the next receive sends it again. That is deliberate: a
 * second confirmation is a nuisance, a lost one can cost a patient a wasted trip or a broken fast.
 */
import { derivedUuid } from '../derived-uuid';
import type { AppointmentFacts, EmailFacts, MessageType } from '../email/content';
import { composeEmail } from '../email/compose';
import { isPermanentRefusal, sendEmail } from '../email/ses';
import { config, requireSetting } from '../config';
import { APPOINTMENT_STATUS_CHANGED, HOME_KIT_ORDER_STATUS_CHANGED } from '../events/status-changed';
import { APPOINTMENT_RESCHEDULED } from '../events/appointment-rescheduled';
import { LAB_RESULTS_AVAILABLE } from '../events/lab-results-available';
import { SPECIMEN_REJECTED } from '../events/specimen-rejected';
import { errorNames, logger } from '../logger';
import { inRealm, REALMS, type Realm } from '../sandbox';
import { getAppointmentAggregate } from '../store/appointments/reads';
import type { AppointmentRecord } from '../store/appointments/records';
import { loadCatalog } from '../store/catalog';
import { addressHash, issueUnsubscribeToken, suppressionOf } from '../store/email-consent';
import { getHomeKitOrder } from '../store/home-kit-orders';
import { getLocation } from '../store/locations';
import { claimToSend, markFailed, markSent, type MessageRecord, recordUnsent, releaseClaim, type UnsentStatus } from '../store/messages';
import { getProfile, type ProfileRecord } from '../store/profiles';
import { addressLine, preparationOf, slotEndOf } from './appointment-facts';
import { senderOf } from './sender';
import { patientLinkForEmail } from './create-patient-link';
import { dropReminder, dueReminders, type ReminderRecord, setReminder, takeReminder } from '../store/reminders';
import type { BusEvent } from '../webhooks/bus-event';

/** How long a claim holds: past SES's timeout (shared/email/ses.ts) and the writes around it. */
export const CLAIM_MS = 60_000;
/** A booking this close gets no reminder: the confirmation just said it all. */
export const NO_REMINDER_WITHIN_MS = 2 * 3_600_000;

/** One message to decide: what it is, about what, and the event it answers. */
export interface Draft {
  id: string;
  type: MessageType;
  event_id: string;
  /** When the message's moment was (the event's time; a reminder's due time): its id sorts by it. */
  at: string;
  profile_id: string;
  appointment_id?: string;
  home_kit_order_id?: string;
  /** A move: where and when the appointment was before. */
  previous?: { scheduled_at: string; location_id: string };
}

const draft = (type: MessageType, eventId: string, at: string, fields: Omit<Draft, 'id' | 'type' | 'event_id' | 'at'>): Draft => ({
  id: derivedUuid([eventId, type], { timeMs: Date.parse(at) }),
  type,
  event_id: eventId,
  at,
  ...fields,
});

/** A reminder is one per appointment and start: the same start reminded twice is the same message. */
const reminderDraft = (reminder: ReminderRecord): Draft => ({
  id: derivedUuid(['reminder', reminder.appointment_id, reminder.scheduled_at], { timeMs: Date.parse(reminder.due_at) }),
  type: 'appointment_reminder',
  event_id: reminder.event_id,
  at: reminder.due_at,
  profile_id: reminder.profile_id,
  appointment_id: reminder.appointment_id,
});

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const previousSlot = (from: unknown): Draft['previous'] => {
  const slot = from as { scheduled_at?: unknown; location_id?: unknown } | null;
  return typeof slot?.scheduled_at === 'string' && typeof slot.location_id === 'string'
    ? { scheduled_at: slot.scheduled_at, location_id: slot.location_id }
    : undefined;
};

/** What an event asks for: the messages it makes, and what becomes of the appointment's reminder. */
function planFor({ event }: BusEvent): { drafts: Draft[]; reminder?: 'set' | 'drop'; appointmentId?: string } {
  const { detail } = event;
  const profileId = str(detail.profile_id);
  const appointmentId = str(detail.appointment_id);
  if (!profileId) return { drafts: [] };
  const about = (type: MessageType, fields: Partial<Draft> = {}) => draft(type, event.event_id, event.occurred_at, { profile_id: profileId, ...fields });
  switch (event.detail_type) {
    case APPOINTMENT_STATUS_CHANGED: {
      // A home kit's appointment has no time or place to tell: its kit's own messages say what matters.
      if (!appointmentId || detail.location_id === null) return { drafts: [] };
      if (detail.from_status === null && detail.status === 'scheduled')
        return { drafts: [about('appointment_booked', { appointment_id: appointmentId })], reminder: 'set', appointmentId };
      if (detail.status === 'cancelled')
        return { drafts: [about('appointment_cancelled', { appointment_id: appointmentId })], reminder: 'drop', appointmentId };
      if (detail.status === 'blood_drawn') return { drafts: [], reminder: 'drop', appointmentId };
      return { drafts: [] };
    }
    case APPOINTMENT_RESCHEDULED:
      if (!appointmentId) return { drafts: [] };
      return {
        drafts: [about('appointment_rescheduled', { appointment_id: appointmentId, previous: previousSlot(detail.from) })],
        reminder: 'set',
        appointmentId,
      };
    case HOME_KIT_ORDER_STATUS_CHANGED: {
      const kitId = str(detail.home_kit_order_id);
      return kitId && detail.status === 'dispatched' ? { drafts: [about('home_kit_dispatched', { home_kit_order_id: kitId })] } : { drafts: [] };
    }
    case LAB_RESULTS_AVAILABLE:
      return appointmentId ? { drafts: [about('results_ready', { appointment_id: appointmentId })] } : { drafts: [] };
    case SPECIMEN_REJECTED:
      return appointmentId ? { drafts: [about('specimen_rejected', { appointment_id: appointmentId })] } : { drafts: [] };
    default:
      return { drafts: [] };
  }
}

/** The messages one event makes, each decided and sent once, in the realm the event is about. */
export async function messagesForEvent(busEvent: BusEvent, now: Date): Promise<void> {
  await inRealm(busEvent.realm, async () => {
    const plan = planFor(busEvent);
    for (const message of plan.drafts) await deliver(message, busEvent.realm, now);
    if (plan.appointmentId && plan.reminder === 'drop') await dropReminder(plan.appointmentId);
    if (plan.appointmentId && plan.reminder === 'set') await planReminder(plan.appointmentId, busEvent.event.event_id, busEvent.realm, now);
  });
}

/**
 * The reminder of an appointment as it is now: due `reminderHoursBefore` ahead of its start; sent at once
 * when that time has passed but the start is more than 2 hours away; none closer than that, or once it is
 * no longer scheduled at a location.
 */
async function planReminder(appointmentId: string, eventId: string, realm: Realm, now: Date): Promise<void> {
  const appointment = (await getAppointmentAggregate(appointmentId))?.appointment;
  if (!appointment || appointment.status !== 'scheduled' || !appointment.scheduled_at || !appointment.location_id) {
    await dropReminder(appointmentId);
    return;
  }
  const start = Date.parse(appointment.scheduled_at);
  const reminder: ReminderRecord = {
    appointment_id: appointmentId,
    profile_id: appointment.profile_id,
    scheduled_at: appointment.scheduled_at,
    due_at: new Date(start - config.email.reminderHoursBefore * 3_600_000).toISOString(),
    event_id: eventId,
  };
  if (Date.parse(reminder.due_at) > now.getTime()) return setReminder(reminder);
  await dropReminder(appointmentId);
  // Its id comes from the due time, past as it is, never from now: the same event handled again names the same reminder.
  if (start - now.getTime() > NO_REMINDER_WITHIN_MS) await deliver(reminderDraft(reminder), realm, now);
}

/**
 * Every reminder due now, in both realms: sent, or dropped when its appointment is no longer scheduled for
 * that start. A reminder leaves the index only once its message is decided (sent, failed, not to be sent):
 * one whose send failed (SES throttled, DynamoDB unavailable) or is still in another sweep's hands stays, and
 * the next sweep tries it again. Answers how many left the index, so a run stops when only failures remain.
 */
export async function sendDueReminders(now: Date, limit = 25): Promise<number> {
  let handled = 0;
  for (const realm of REALMS) {
    handled += await inRealm(realm, async () => {
      let done = 0;
      for (const reminder of await dueReminders(now, limit)) {
        try {
          if (await remind(reminder, realm, now)) done += (await takeReminder(reminder)) ? 1 : 0;
        } catch (error) {
          logger.warn('reminder not sent; the next sweep tries again', { appointment_id: reminder.appointment_id, ...errorNames(error) });
        }
      }
      return done;
    });
  }
  return handled;
}

/** Sends one due reminder if its appointment still waits for it; false while its message is in another's hands. */
async function remind(reminder: ReminderRecord, realm: Realm, now: Date): Promise<boolean> {
  const appointment = (await getAppointmentAggregate(reminder.appointment_id))?.appointment;
  if (appointment?.status !== 'scheduled') return true;
  // Moved since (an event not handled yet, or handled out of order): planned anew for its start now, which
  // re-files or drops this item itself (the conditional take then finds it changed, and leaves it).
  if (appointment.scheduled_at !== reminder.scheduled_at) {
    await planReminder(reminder.appointment_id, reminder.event_id, realm, now);
    return true;
  }
  if (Date.parse(reminder.scheduled_at) <= now.getTime()) return true;
  return (await deliver(reminderDraft(reminder), realm, now)) === 'decided';
}

const record = (message: Draft, status: MessageRecord['status'], subject: string | null, now: Date): MessageRecord => ({
  id: message.id,
  profile_id: message.profile_id,
  type: message.type,
  channel: 'email',
  status,
  subject,
  created_at: now.toISOString(),
  sent_at: null,
  event_id: message.event_id,
  ...(message.appointment_id ? { appointment_id: message.appointment_id } : {}),
  ...(message.home_kit_order_id ? { home_kit_order_id: message.home_kit_order_id } : {}),
});

/**
 * Decides one message and, when the person may be written to, sends it once. Answers `decided` once the
 * message has its fate (sent, failed, not to be sent; also when someone decided it before), `in-flight`
 * while another sender holds its claim. Throws when SES did not take it: the claim is given back, and the
 * caller's retry (the queue's next receive, the next sweep) sends it.
 */
export async function deliver(message: Draft, realm: Realm, now: Date): Promise<'decided' | 'in-flight'> {
  const profile = await getProfile(message.profile_id);
  // An erased person is no longer anyone to write to, and their messages were erased with them.
  if (!profile || profile.erased_at) return 'decided';
  const unsent = async (status: UnsentStatus, subject: string | null = null) => {
    await recordUnsent({ ...record(message, status, subject, now), status }, now);
    return 'decided' as const;
  };
  if (!profile.email) return unsent('skipped_no_address');
  // Only an explicit yes: null (never asked) sends nothing.
  if (profile.transactional_emails_enabled !== true) return unsent('skipped_no_consent');
  if (realm === 'sandbox') {
    // Composed as it would be (its subject is what the list shows), sent nowhere.
    const composed = await composeFor(message, profile, 'https://sandbox.invalid/u/simulated');
    return unsent('simulated', typeof composed === 'string' ? null : composed.email.subject);
  }
  if (await suppressionOf(profile.email)) return unsent('suppressed');

  const pending = record(message, 'pending', null, now);
  const claim = await claimToSend(pending, now, new Date(now.getTime() + CLAIM_MS));
  if (claim.kind === 'in-flight') return 'in-flight';
  if (claim.kind === 'decided') return 'decided';
  const token = await issueUnsubscribeToken(profile.id, now);
  const unsubscribeUrl = `${requireSetting(config.email.linkOrigin, 'EMAIL_LINK_ORIGIN')}/u/${token}`;
  // The page of the appointment (issue #53), when the stage has one: a link of its own for this message.
  const appointmentPage = message.appointment_id && PAGE_LINK_TYPES.has(message.type) ? await patientLinkForEmail(message.appointment_id, now) : undefined;
  const composed = await composeFor(message, profile, unsubscribeUrl, appointmentPage);
  if (typeof composed === 'string') {
    await markFailed(pending, composed, null);
    return 'decided';
  }
  const { email, sender } = composed;
  let sesMessageId: string;
  try {
    sesMessageId = await sendEmail(email, {
      to: profile.email,
      senderName: sender.name,
      replyTo: sender.replyTo,
      unsubscribeUrl,
      tags: { message_type: message.type },
    });
  } catch (error) {
    if (isPermanentRefusal(error)) {
      logger.warn('message refused by SES for good', { message_id: message.id, type: message.type, ...errorNames(error) });
      await markFailed(pending, error.name, email.subject);
      return 'decided';
    }
    // Not taken (throttled, unavailable, no answer): the claim ends now and the caller's retry sends it.
    logger.warn('message not sent; tried again', { message_id: message.id, type: message.type, ...errorNames(error) });
    await releaseClaim(pending);
    throw error;
  }
  await markSent(pending, { subject: email.subject, sesMessageId, at: new Date().toISOString(), addressHash: addressHash(profile.email) });
  logger.info('message sent', { message_id: message.id, type: message.type });
  return 'decided';
}

/** The facts of a message, composed; undefined when what it is about is gone (nothing true to say). */
/**
 * Why a message has nothing true to say: what it is about is gone, or the appointment is no longer scheduled
 * (a booking's event handled after its cancellation must not send "booked" after "cancelled").
 */
type NothingToSay = 'NothingToSay' | 'AppointmentChanged';

/** The facts of a message, composed; or why there is nothing to say. */
async function composeFor(message: Draft, profile: ProfileRecord, unsubscribeUrl: string, appointmentPage?: string) {
  const sender = await senderOf(profile.profile_group_slug);
  const facts: EmailFacts = {
    type: message.type,
    language: profile.language,
    firstName: profile.first_name,
    senderName: sender.name,
    links: { unsubscribe: unsubscribeUrl, ...(appointmentPage ? { appointmentPage } : {}) },
  };
  if (message.home_kit_order_id) {
    const kit = await getHomeKitOrder(message.home_kit_order_id);
    if (!kit) return 'NothingToSay' as const;
    facts.kit = { trackingNumber: kit.tracking_number };
  }
  if (message.appointment_id && APPOINTMENT_TYPES.has(message.type)) {
    const appointment = await appointmentFacts({ ...message, appointment_id: message.appointment_id }, profile, sender);
    if (typeof appointment === 'string') return appointment;
    facts.appointment = appointment;
  }
  return { email: composeEmail(facts), sender };
}

/** The messages that carry the link to the appointment's page (issue #53): those about an appointment still to come. */
const PAGE_LINK_TYPES = new Set<MessageType>(['appointment_booked', 'appointment_rescheduled', 'appointment_reminder']);

/** The messages that tell an appointment's time and place. */
const APPOINTMENT_TYPES = new Set<MessageType>(['appointment_booked', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder']);

async function appointmentFacts(
  { appointment_id: appointmentId, previous, at, type }: Draft & { appointment_id: string },
  profile: ProfileRecord,
  sender: { name: string },
): Promise<AppointmentFacts | NothingToSay> {
  const [aggregate, catalog] = await Promise.all([getAppointmentAggregate(appointmentId), loadCatalog()]);
  const appointment = aggregate?.appointment;
  if (!aggregate || !appointment?.location_id || !appointment.scheduled_at) return 'NothingToSay';
  if (type !== 'appointment_cancelled' && appointment.status !== 'scheduled') return 'AppointmentChanged';
  const [location, previousLocation] = await Promise.all([
    getLocation(appointment.location_id),
    previous && previous.location_id !== appointment.location_id ? getLocation(previous.location_id) : undefined,
  ]);
  if (!location) return 'NothingToSay';
  const { preparation, specimenCount } = preparationOf(aggregate, catalog, profile.language);
  return {
    scheduledAt: appointment.scheduled_at,
    endsAt: slotEndOf({ scheduled_at: appointment.scheduled_at, ends_at: appointment.ends_at }),
    timeZone: location.timezone ?? 'UTC',
    location: { name: location.name, address: addressLine(location), mapUrl: location.google_maps_url },
    preparation,
    specimenCount,
    // Stamped with the moment it answers, so that the same message composes to the same bytes.
    calendar: {
      ...calendarOf(appointment),
      stampedAt: at,
      organizer: { name: sender.name, email: requireSetting(config.email.fromAddress, 'EMAIL_FROM_ADDRESS') },
      ...(profile.email ? { attendee: { name: profile.first_name, email: profile.email } } : {}),
    },
    ...(previous
      ? {
          previous: {
            scheduledAt: previous.scheduled_at,
            timeZone: (previousLocation ?? location).timezone ?? 'UTC',
            locationName: (previousLocation ?? location).name,
          },
        }
      : {}),
  };
}

/**
 * One calendar entry for the appointment's whole life (its UID), and a SEQUENCE that grows with every
 * change (RFC 5546): 0 as booked, one more for each move (schedule_seq), and one more once cancelled. A
 * calendar applies the newest and ignores an older copy arriving late.
 */
function calendarOf(appointment: AppointmentRecord): { uid: string; sequence: number } {
  return { uid: `${appointment.id}@lab-api`, sequence: (appointment.schedule_seq ?? 0) + (appointment.status === 'cancelled' ? 1 : 0) };
}
