/**
 * Appointment reminders waiting for their time (issue #52, docs/messages.md "Reminders"): one item per
 * appointment at a location, listed in GSI2 by when it is due, so the sweep that sends them (every minute,
 * functions/events/message-reminders.ts) reads only what is due. The message pipeline sets it when an
 * appointment is booked or moved and drops it when it is cancelled or drawn; the sweep checks the
 * appointment again before it sends, so an event handled late or out of order never sends a wrong reminder.
 *
 * Access patterns:
 * - set or move an appointment's reminder ... PutItem    REMINDER#<appointment id> (+ GSI2 due entry)
 * - drop it ................................. DeleteItem REMINDER#<appointment id>
 * - the reminders due now ................... Query GSI2 REMINDERS_DUE, GSI2SK < now
 * - take one to send ........................ DeleteItem, condition: still due at the time read
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { writtenIf } from './conditions';
import * as index from './keys/index-entries';
import * as keys from './keys/items';
import { dueOnGsi2 } from './query';

export interface ReminderRecord {
  appointment_id: string;
  profile_id: string;
  /** The appointment's start it reminds of: a reminder for another start is stale. */
  scheduled_at: string;
  due_at: string;
  /** The event that booked or moved the appointment: what the reminder message is filed under. */
  event_id: string;
}

export async function setReminder(reminder: ReminderRecord): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.reminder(reminder.appointment_id), ...index.dueReminder(reminder.due_at, reminder.appointment_id), ...reminder },
    }),
  );
}

export async function dropReminder(appointmentId: string): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.reminder(appointmentId) }));
}

/** Up to `limit` reminders due at `now`, the longest waiting first. */
export async function dueReminders(now: Date, limit: number): Promise<ReminderRecord[]> {
  return dueOnGsi2<ReminderRecord>(index.dueRemindersBefore(now.toISOString()), limit);
}

/**
 * Takes a due reminder off the index before its message is sent: false when someone else took it, or it
 * moved meanwhile (then the other, or the new time, decides). The message's own claim makes it go once
 * even if two sweeps read the same item; this only keeps the index to what still waits.
 */
export async function takeReminder(reminder: ReminderRecord): Promise<boolean> {
  return writtenIf(
    dynamo.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.reminder(reminder.appointment_id),
        ConditionExpression: 'due_at = :due AND scheduled_at = :scheduled',
        ExpressionAttributeValues: { ':due': reminder.due_at, ':scheduled': reminder.scheduled_at },
      }),
    ),
  );
}
