/** What the order routes answer (issue #50). Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { type OperationDoc, READ_NOT_RECORDED } from '../operation-doc';

export const ordersOperations = {
  getAppointmentOrderFhir: {
    tag: 'Appointments',
    summary: 'Export the lab order as FHIR R4',
    description:
      'After the draw (or the home kit activation): the order as a FHIR R4 Bundle of type collection (application/fhir+json), identified by the ' +
      'requisition number: a minimal Patient, one ServiceRequest per test (status active, completed once the lab answered it for good; ' +
      'intent order; code its LOINC coding; requisition the requisition number; specimen the tube it is tested on) and one Specimen per tube ' +
      '(identifier the sample barcode, type HL7 v2 table 0487, container, collection time). The results DiagnosticReport ' +
      '(GET /api/v1/appointments/{id}/results/fhir) names these ServiceRequests in basedOn: their ids are the same in both.',
    responses: {
      200: {
        description: 'The FHIR R4 Bundle (validated against the HL7 FHIR R4 JSON schema in the test suite).',
        content: { type: 'application/fhir+json', schema: { type: 'object', description: 'A FHIR R4 Bundle: https://hl7.org/fhir/R4/bundle.html' } },
      },
    },
    errors: { 404: 'appointment not found', 409: 'no requisition yet: not drawn (or activated), or drawn before requisitions existed', 503: READ_NOT_RECORDED },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
