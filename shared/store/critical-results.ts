/**
 * Appointments whose critical results wait for a clinician (issue #29), as GSI2 lists them: the ingest
 * lists an appointment when a critical value arrives, the acknowledgement takes it off
 * (keys.ts index.unacknowledgedCritical). The list holds only what nobody saw yet, so the check costs what
 * it finds, never a Scan.
 */
import { GSI2 } from './keys';
import * as index from './keys/index-entries';
import { tableName } from './client';
import { queryAll } from './query';

export interface WaitingCritical {
  appointment_id: string;
  /** When its oldest unacknowledged critical value was reported. */
  waiting_since: string;
}

/** Every appointment whose critical results wait since before `instant`, longest waiting first. */
export async function criticalResultsWaitingSince(instant: string): Promise<WaitingCritical[]> {
  const { GSI2PK, GSI2SKBefore } = index.unacknowledgedCriticalBefore(instant);
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI2,
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :cutoff',
    ExpressionAttributeValues: { ':pk': GSI2PK, ':cutoff': GSI2SKBefore },
    ProjectionExpression: 'GSI2SK',
  });
  return items.map((item) => {
    const sk = item.GSI2SK as string;
    const separator = sk.lastIndexOf('#');
    return { waiting_since: sk.slice(0, separator), appointment_id: sk.slice(separator + 1) };
  });
}
