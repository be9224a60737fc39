/**
 * Reading appointments.
 *
 * Access patterns:
 * - an appointment with its links ............ Query          PK=APPT#<id>
 * - several appointments (pickup batch) ...... BatchGetItem   APPT#<id> / APPT
 * - a profile's appointments, newest first ... Query          GSI1 PROFILE#<id> / APPT#<instant>#<id>, descending
 */
import { NotFound } from '../../errors';
import { tableName } from '../client';
import { appointmentSk } from '../keys';
import * as keys from '../keys/items';
import * as index from '../keys/index-entries';
import { type ClinicalResultRecord, type DocumentLink, documentLink, type GeneticResultRecord, type RejectedTestRecord } from '../lab-reports';
import { type Page, type PageRequest, pageByIndexPrefix } from '../pages';
import { batchGetAll, queryAll, withoutKeys } from '../query';
import { APPOINTMENT_NOT_FOUND, type AppointmentAggregate, type AppointmentRecord, type BiomarkerLink, type PanelLink, type ShipmentLink } from './records';

/** Oldest link first; links added together are ordered by id, so answers are stable. */
const byAddedAt =
  <T extends { added_at: string }>(id: (link: T) => string | number) =>
  (a: T, b: T) => {
    const [idA, idB] = [id(a), id(b)];
    return a.added_at.localeCompare(b.added_at) || (typeof idA === 'number' && typeof idB === 'number' ? idA - idB : String(idA).localeCompare(String(idB)));
  };

/** The appointment and its links in one Query; undefined when there is no such appointment. */
export async function getAppointmentAggregate(id: string): Promise<AppointmentAggregate | undefined> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk',
    ConsistentRead: true,
    ExpressionAttributeValues: { ':pk': keys.appointment(id).PK },
  });
  const aggregate: Partial<AppointmentAggregate> & Omit<AppointmentAggregate, 'appointment'> = {
    panels: [],
    biomarkers: [],
    shipments: [],
    clinicalResults: [],
    geneticResults: [],
    rejectedTests: [],
    documents: [],
  };
  for (const item of items) {
    const sk = item.SK as string;
    if (sk === appointmentSk.appointment) aggregate.appointment = withoutKeys<AppointmentRecord>(item);
    else if (sk.startsWith(appointmentSk.panel)) aggregate.panels.push(withoutKeys<PanelLink>(item));
    else if (sk.startsWith(appointmentSk.biomarker)) aggregate.biomarkers.push(withoutKeys<BiomarkerLink>(item));
    else if (sk.startsWith(appointmentSk.shipment)) aggregate.shipments.push(withoutKeys<ShipmentLink>(item));
    else if (sk.startsWith(appointmentSk.clinicalResult)) aggregate.clinicalResults.push(withoutKeys<ClinicalResultRecord>(item));
    else if (sk.startsWith(appointmentSk.geneticResult)) aggregate.geneticResults.push(withoutKeys<GeneticResultRecord>(item));
    else if (sk.startsWith(appointmentSk.document)) aggregate.documents.push(documentLink(withoutKeys<DocumentLink>(item)));
    else if (sk.startsWith(appointmentSk.rejectedTest)) aggregate.rejectedTests.push(withoutKeys<RejectedTestRecord>(item));
  }
  if (!aggregate.appointment) return undefined;
  aggregate.panels.sort(byAddedAt((link) => link.panel_id));
  aggregate.biomarkers.sort(byAddedAt((link) => link.biomarker_id));
  aggregate.shipments.sort(byAddedAt((link) => link.id));
  aggregate.documents.sort(byAddedAt((link) => link.id));
  aggregate.geneticResults.sort((a, b) => a.biomarker_id - b.biomarker_id);
  return aggregate as AppointmentAggregate;
}

export async function getAppointmentAggregateOrThrow(id: string): Promise<AppointmentAggregate> {
  const aggregate = await getAppointmentAggregate(id);
  if (!aggregate) throw new NotFound(APPOINTMENT_NOT_FOUND);
  return aggregate;
}

/** The APPT item alone (no links): for the history route's access check. */
export async function getAppointment(id: string): Promise<AppointmentRecord | undefined> {
  return (await getAppointments([id]))[0];
}

export async function getAppointments(ids: string[]): Promise<AppointmentRecord[]> {
  const items = await batchGetAll(ids.map((id) => keys.appointment(id)));
  return items.map((item) => withoutKeys<AppointmentRecord>(item));
}

export function listAppointmentsOfProfile(profileId: string, page: PageRequest): Promise<Page<AppointmentRecord>> {
  return pageByIndexPrefix<AppointmentRecord>([index.appointmentsOfProfile(profileId)], page);
}
