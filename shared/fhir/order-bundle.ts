/**
 * An appointment's order as a FHIR R4 Bundle (type `collection`), as Medplum and other FHIR labs model a
 * lab order: the Patient, one Specimen per tube (type and container; its identifier the sample's
 * barcode, which every tube of the draw carries) and one ServiceRequest per test, each under the
 * requisition number and pointing at the Specimen it is tested on. The results' DiagnosticReport names
 * these ServiceRequests in `basedOn` (results-bundle.ts) by their identifiers: derived ids, the same in both
 * bundles (a urn:uuid reference would resolve only inside its own bundle).
 */
import { derivedUuid } from '../derived-uuid';
import type { Requisition } from '../domain/requisition';
import type { ProfileRecord } from '../store/profiles';
import { LABORATORY_PROCEDURE, LOINC, REQUISITION_SYSTEM, SAMPLE_BARCODE_SYSTEM, SPECIMEN_TYPE, SPECIMEN_TYPE_CODES } from './codes';
import { patient, serviceRequestId, serviceRequestIdentifier, urn } from './resources';

type Json = Record<string, unknown>;

export interface OrderExport {
  appointmentId: string;
  barcode: string;
  /** When the sample was taken: the draw, or the kit's activation. */
  collectedAt: string;
  requisition: Requisition;
  /** The tests the lab has answered for good (a final or corrected value, or not performed): completed. */
  answered: ReadonlySet<number>;
  profile: ProfileRecord;
  now: Date;
}

const tubeKey = (specimen: { type: string; container: string }) => `${specimen.type}|${specimen.container}`;

export function orderBundle({ appointmentId, barcode, collectedAt, requisition, answered, profile, now }: OrderExport): Json {
  const subject = { reference: urn(profile.id) };
  const requisitionId = { system: REQUISITION_SYSTEM, value: requisition.number };
  const specimenIds = new Map<string, string>();
  const specimens: { fullUrl: string; resource: Json }[] = [];
  for (const { specimen } of requisition.tests) {
    const key = tubeKey(specimen);
    if (specimenIds.has(key)) continue;
    const id = derivedUuid([appointmentId, 'specimen', key]);
    specimenIds.set(key, id);
    const requests = requisition.tests.filter((test) => tubeKey(test.specimen) === key);
    specimens.push({
      fullUrl: urn(id),
      resource: {
        resourceType: 'Specimen',
        id,
        identifier: [{ system: SAMPLE_BARCODE_SYSTEM, value: barcode }],
        status: 'available',
        type: { coding: [{ system: SPECIMEN_TYPE, ...SPECIMEN_TYPE_CODES[specimen.type] }], text: specimen.type.replaceAll('_', ' ') },
        subject,
        request: requests.map((test) => ({ reference: urn(serviceRequestId(appointmentId, test.biomarker_id)) })),
        collection: { collectedDateTime: collectedAt },
        container: [{ type: { text: specimen.container } }],
      },
    });
  }
  const serviceRequests = requisition.tests.map((test) => {
    const id = serviceRequestId(appointmentId, test.biomarker_id);
    return {
      fullUrl: urn(id),
      resource: {
        resourceType: 'ServiceRequest',
        id,
        identifier: [serviceRequestIdentifier(appointmentId, test.biomarker_id)],
        requisition: requisitionId,
        status: answered.has(test.biomarker_id) ? 'completed' : 'active',
        intent: 'order',
        category: [{ coding: [LABORATORY_PROCEDURE] }],
        // Our name goes in text: a coding's display must be LOINC's own name, which we do not keep.
        code: { coding: [{ system: LOINC, code: test.loinc }], text: test.name },
        subject,
        authoredOn: requisition.created_at,
        specimen: [{ reference: urn(specimenIds.get(tubeKey(test.specimen))!) }],
      },
    };
  });
  return {
    resourceType: 'Bundle',
    id: derivedUuid([appointmentId, 'order-bundle', now.toISOString()]),
    meta: { lastUpdated: now.toISOString() },
    identifier: requisitionId,
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [{ fullUrl: urn(profile.id), resource: patient(profile) }, ...serviceRequests, ...specimens],
  };
}
