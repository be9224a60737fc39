/**
 * Examples of the main bodies for docs/openapi.json. Invented people and places only (the phone number is in the range German broadcasters reserve for fiction). Spectral checks each
 * example against its schema (oas3-valid-media-example), so an example cannot drift from the contract.
 */

const PROFILE_ID = '3f2b8c1e-5d4a-4e8b-9c7d-1a2b3c4d5e6f';
const LOCATION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const APPOINTMENT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export const createProfileBody = {
  profile_group_slug: 'berlin-clinic',
  first_name: 'Erika',
  last_name: 'Mustermann',
  date_of_birth: '1984-08-12',
  sex: 2,
  email: 'erika@example.org',
  phone: '+493023125001',
  language: 'de',
};

export const createdProfile = {
  id: PROFILE_ID,
  handle: null,
  first_name: 'Erika',
  last_name: 'Mustermann',
  email: 'erika@example.org',
  phone: '+493023125001',
  sex: 2,
  date_of_birth: '1984-08-12',
  height: null,
  weight: null,
  language: 'de',
};

export const createAppointmentBody = {
  profile_id: PROFILE_ID,
  location_id: LOCATION_ID,
  scheduled_at: '2026-12-01T09:30:00+01:00',
};

export const createdAppointment = {
  id: APPOINTMENT_ID,
  profile_id: PROFILE_ID,
  location_id: LOCATION_ID,
  scheduled_at: '2026-12-01T08:30:00Z',
  status: 'scheduled',
  test_method: 'practitioner',
  recollection_of: null,
  profile: createdProfile,
};

export const confirmBody = { barcode: 'LAB-2026-000123' };

export const pickupBody = { appointment_ids: [APPOINTMENT_ID], shipment_id: 'P-583019-2746' };

export const appointmentResults = {
  status: 'in_progress',
  clinical_results: [
    {
      status: 'received',
      result_status: 'final',
      biomarker_id: 1,
      biomarker_name: 'Haemoglobin',
      category: 'Blood count',
      value: 13.2,
      value_operator: 'eq',
      unit_id: 1,
      unit: 'g/dL',
      reference_range_lab: { normal_min: 12, normal_max: 16, optimal_min: null, optimal_max: null },
      reference_range_service: { normal_min: 12, normal_max: 15.5, optimal_min: 13, optimal_max: 15 },
      interpretation: 'normal',
      tested_at: '2026-12-02',
      comment: null,
    },
    {
      status: 'planned',
      result_status: null,
      biomarker_id: 2,
      biomarker_name: 'Ferritin',
      category: 'Iron',
      value: null,
      value_operator: null,
      unit_id: null,
      unit: null,
      reference_range_lab: null,
      reference_range_service: { normal_min: 15, normal_max: 150, optimal_min: null, optimal_max: null },
      interpretation: null,
      tested_at: null,
      comment: null,
    },
  ],
  genetic_results: [],
  documents: [
    { id: 'b1e2c3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', file_name: 'lab-report.pdf', kind: 'lab_report', result_status: 'final', created_at: '2026-11-20T14:02:11Z' },
  ],
  critical: null,
};

export const createShipmentBody = {
  location_id: LOCATION_ID,
  pickup_date: '2026-12-01',
  pickup_time_from: '10:00',
  pickup_time_till: '14:00',
  notes: 'Ring at the side entrance',
};

const lab = {
  name: 'Central Lab',
  street: 'Laborstraße',
  house_number: '1',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: null,
  email: null,
};

export const createdShipment = {
  id: 'P-583019-2746',
  status: 'pending',
  logistics_provider: 'go_express',
  tracking_number: null,
  origin: { ...lab, name: 'Mitte Clinic', street: 'Invalidenstraße', house_number: '50' },
  destination: lab,
  notes: 'Ring at the side entrance',
  shipped_at: null,
  arrived_at: null,
};

export const createHomeKitOrderBody = {
  profile_id: PROFILE_ID,
  delivery_address: {
    name: 'Erika Mustermann',
    street: 'Beispielweg',
    house_number: '7',
    postal_code: '10117',
    city: 'Berlin',
    country: 'DE',
  },
};

/** A mislabelled tube's report, as the lab-operations list shows it (issue #51), and its match. */
export const matchUnmatchedResultBody = { appointment_id: APPOINTMENT_ID };

export const unmatchedResult = {
  id: '0f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f',
  received_at: '2026-11-24T08:31:02.512Z',
  barcode: 'LAB-2026-000129',
  patient: { name: 'Mustermann, Erika', date_of_birth: '1984-08-12' },
  biomarkers: [
    { code: '718-7', name: 'Hemoglobin' },
    { code: '3016-3', name: 'TSH' },
  ],
  source: 'hl7',
  status: 'waiting',
  appointment_id: null,
  closed_at: null,
  discard_reason: null,
};
