/**
 * POST /appointments/{id}/results/acknowledge (issue #29): a clinician saw the critical values. Records
 * when and by which key, once: acknowledging again changes nothing. Acknowledges what the caller read: a
 * critical value that arrived between the read and the write is not acknowledged unseen (409).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../errors';
import { dynamo, tableName } from '../store/client';
import { isConditionFailure } from '../store/conditions';
import * as keys from '../store/keys/items';
import { type AppointmentResults, readResults } from './read-results';
import type { Caller } from './request';

export const NOTHING_TO_ACKNOWLEDGE = 'These results hold no critical value to acknowledge';
export const NEW_CRITICAL_MEANWHILE = 'A new critical value arrived while this request was processed; read the results again, then acknowledge them';

export async function acknowledgeCriticalResults(id: string, { access, now }: Caller): Promise<AppointmentResults> {
  const read = await readResults(id, access);
  const { appointment } = read.aggregate;
  if (!appointment.critical_reported_at) throw new Conflict(NOTHING_TO_ACKNOWLEDGE);
  if (appointment.critical_acknowledged_at) return read;
  const acknowledged = { critical_acknowledged_at: now.toISOString(), critical_acknowledged_by: access.keyId };
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.appointment(id),
        // Off the critical results check's list (GSI2): a clinician saw them.
        UpdateExpression: 'SET critical_acknowledged_at = :at, critical_acknowledged_by = :by REMOVE critical_waiting_since, GSI2PK, GSI2SK',
        ConditionExpression: 'critical_reported_at = :reported AND (attribute_not_exists(critical_acknowledged_at) OR critical_acknowledged_at = :none)',
        ExpressionAttributeValues: {
          ':at': acknowledged.critical_acknowledged_at,
          ':by': access.keyId,
          ':reported': appointment.critical_reported_at,
          ':none': null,
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Acknowledged by a racing request (then this one is answered as it is), or a new critical value came.
    const again = await readResults(id, access);
    const current = again.aggregate.appointment;
    if (current.critical_reported_at === appointment.critical_reported_at && current.critical_acknowledged_at) return again;
    throw new Conflict(NEW_CRITICAL_MEANWHILE);
  }
  return { ...read, aggregate: { ...read.aggregate, appointment: { ...appointment, ...acknowledged } } };
}
