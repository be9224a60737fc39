/**
 * Demo data of the local stack: two profile groups, Berlin and Helsinki locations (one inactive), and a
 * small catalog. Fixed ids so that seeding again changes nothing. Addresses are realistic but the
 * clinics, phones and mailboxes are invented (example domains, no real people).
 */
import type { ProfileGroupRecord } from '../../shared/store/profiles';
import type { LocationRecord, OpenHours } from '../../shared/store/locations';
import type { BiomarkerRecord, PanelRecord, ReferenceRange } from '../../shared/store/catalog';
import type { Address } from '../../shared/domain/address';

/** The labs samples are shipped to. */
const BERLIN_LAB: Address = {
  name: 'Lab Testing Zentrallabor Berlin',
  street: 'Invalidenstraße',
  house_number: '65',
  postal_code: '10557',
  city: 'Berlin',
  country: 'DE',
  phone: '+4930120045699',
  email: 'samples@lab-testing.example',
};
const HELSINKI_LAB: Address = {
  name: 'Lab Testing Keskuslaboratorio',
  street: 'Haartmaninkatu',
  house_number: '8',
  postal_code: '00290',
  city: 'Helsinki',
  country: 'FI',
  phone: '+358912345699',
  email: 'samples.fi@lab-testing.example',
};

export const PROFILE_GROUPS: ProfileGroupRecord[] = [
  { slug: 'demo-clinic', name: 'Demo Clinic' },
  { slug: 'partner-clinic', name: 'Partner Clinic' },
];

export const LOCATION_GROUPS = ['berlin', 'helsinki'] as const;

const weekdays = (open: string, close: string): OpenHours => ({
  monday: [{ open, close }],
  tuesday: [{ open, close }],
  wednesday: [{ open, close }],
  thursday: [{ open, close }],
  friday: [{ open, close }],
  saturday: [],
  sunday: [],
});

const berlin = {
  location_group_slug: 'berlin',
  company_name: 'Lab Testing Berlin GmbH',
  address_line_2: null,
  city: 'Berlin',
  state: 'Berlin',
  country_name: 'Germany',
  country_code: 'DE',
  timezone: 'Europe/Berlin',
  image_url: null,
} as const;

export const LOCATIONS: LocationRecord[] = [
  {
    ...berlin,
    id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
    active: true,
    name: 'Berlin Mitte',
    address_line_1: 'Friedrichstraße 123',
    postal_code: '10117',
    contact_phone: '+4930120045601',
    email: 'mitte@lab-testing.example',
    website: 'https://lab-testing.example/berlin-mitte',
    google_maps_url: 'https://maps.google.com/?q=Friedrichstra%C3%9Fe+123,+10117+Berlin',
    open_hours: { ...weekdays('07:30', '18:00'), saturday: [{ open: '09:00', close: '13:00' }] },
    pickup_address: {
      name: 'Lab Testing Berlin Mitte',
      street: 'Friedrichstraße',
      house_number: '123',
      postal_code: '10117',
      city: 'Berlin',
      country: 'DE',
      phone: '+4930120045601',
      email: 'mitte@lab-testing.example',
    },
    logistics: { provider: 'go_express', destination: BERLIN_LAB },
  },
  {
    ...berlin,
    id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a02',
    active: true,
    name: 'Berlin Prenzlauer Berg',
    address_line_1: 'Schönhauser Allee 80',
    postal_code: '10439',
    contact_phone: '+4930120045602',
    email: 'prenzlauer-berg@lab-testing.example',
    website: 'https://lab-testing.example/berlin-prenzlauer-berg',
    google_maps_url: 'https://maps.google.com/?q=Sch%C3%B6nhauser+Allee+80,+10439+Berlin',
    open_hours: {
      ...weekdays('08:00', '12:30'),
      tuesday: [
        { open: '08:00', close: '12:30' },
        { open: '14:00', close: '18:00' },
      ],
    },
    pickup_address: {
      name: 'Lab Testing Prenzlauer Berg',
      street: 'Schönhauser Allee',
      house_number: '80',
      postal_code: '10439',
      city: 'Berlin',
      country: 'DE',
      phone: '+4930120045602',
      email: 'prenzlauer-berg@lab-testing.example',
    },
    logistics: { provider: 'dhl', destination: BERLIN_LAB },
  },
  {
    ...berlin,
    id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a03',
    active: false,
    name: 'Berlin Charlottenburg (closed)',
    address_line_1: 'Kantstraße 50',
    postal_code: '10627',
    contact_phone: null,
    email: null,
    website: null,
    google_maps_url: null,
    open_hours: null,
    pickup_address: null,
    logistics: null,
  },
  {
    id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a11',
    location_group_slug: 'helsinki',
    active: true,
    name: 'Helsinki Kamppi',
    company_name: 'Lab Testing Finland Oy',
    address_line_1: 'Urho Kekkosen katu 1',
    address_line_2: '3rd floor',
    city: 'Helsinki',
    state: null,
    postal_code: '00100',
    country_name: 'Finland',
    country_code: 'FI',
    timezone: 'Europe/Helsinki',
    contact_phone: '+358912345601',
    email: 'kamppi@lab-testing.example',
    website: 'https://lab-testing.example/helsinki-kamppi',
    google_maps_url: null,
    image_url: null,
    open_hours: weekdays('08:00', '16:00'),
    pickup_address: {
      name: 'Lab Testing Kamppi',
      street: 'Urho Kekkosen katu',
      house_number: '1',
      postal_code: '00100',
      city: 'Helsinki',
      country: 'FI',
      phone: '+358912345601',
      email: 'kamppi@lab-testing.example',
    },
    logistics: { provider: 'tof', destination: HELSINKI_LAB },
  },
];

const range = (normal_min: number | null, normal_max: number | null, optimal_min: number | null = null, optimal_max: number | null = null): ReferenceRange => ({
  normal_min,
  normal_max,
  optimal_min,
  optimal_max,
});

export const BIOMARKERS: BiomarkerRecord[] = [
  { id: 1, name: 'Ferritin', category: 'Iron', unit_id: 1, unit: 'ng/mL', reference_range_service: range(30, 400, 50, 150), kind: 'clinical', loinc: '2276-4' },
  {
    id: 2,
    name: 'Haemoglobin',
    category: 'Blood count',
    unit_id: 2,
    unit: 'g/dL',
    reference_range_service: range(12, 17.5, 13.5, 16),
    kind: 'clinical',
    loinc: '718-7',
  },
  { id: 3, name: 'TSH', category: 'Thyroid', unit_id: 3, unit: 'mIU/L', reference_range_service: range(0.4, 4.0, 0.5, 2.5), kind: 'clinical', loinc: '3016-3' },
  { id: 4, name: 'Free T4', category: 'Thyroid', unit_id: 7, unit: 'ng/dL', reference_range_service: range(0.9, 1.7), kind: 'clinical', loinc: '3024-7' },
  {
    id: 5,
    name: 'Vitamin D (25-OH)',
    category: 'Vitamins',
    unit_id: 1,
    unit: 'ng/mL',
    reference_range_service: range(30, 100, 40, 60),
    kind: 'clinical',
    loinc: '62292-8',
  },
  {
    id: 6,
    name: 'HbA1c',
    category: 'Metabolism',
    unit_id: 4,
    unit: '%',
    reference_range_service: range(4.0, 5.6, 4.5, 5.4),
    kind: 'clinical',
    loinc: '4548-4',
  },
  {
    id: 7,
    name: 'LDL cholesterol',
    category: 'Lipids',
    unit_id: 5,
    unit: 'mg/dL',
    reference_range_service: range(null, 130, null, 100),
    kind: 'clinical',
    loinc: '13457-7',
  },
  {
    id: 8,
    name: 'HDL cholesterol',
    category: 'Lipids',
    unit_id: 5,
    unit: 'mg/dL',
    reference_range_service: range(40, null, 60, null),
    kind: 'clinical',
    loinc: '2085-9',
  },
  {
    id: 9,
    name: 'Triglycerides',
    category: 'Lipids',
    unit_id: 5,
    unit: 'mg/dL',
    reference_range_service: range(null, 150, null, 100),
    kind: 'clinical',
    loinc: '2571-8',
  },
  {
    id: 10,
    name: 'C-reactive protein (hs)',
    category: 'Inflammation',
    unit_id: 6,
    unit: 'mg/L',
    reference_range_service: range(null, 3, null, 1),
    kind: 'clinical',
    loinc: '30522-7',
  },
  { id: 100, name: 'APOE genotype', category: 'Genetics', unit_id: null, unit: null, reference_range_service: null, kind: 'genetic', gene: 'APOE' },
  { id: 101, name: 'MTHFR C677T', category: 'Genetics', unit_id: null, unit: null, reference_range_service: null, kind: 'genetic', gene: 'MTHFR' },
  { id: 102, name: 'Factor V Leiden', category: 'Genetics', unit_id: null, unit: null, reference_range_service: null, kind: 'genetic', gene: 'F5' },
];

export const PANELS: PanelRecord[] = [
  {
    id: '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01',
    name: 'Essentials',
    description: 'Iron, blood count, vitamin D and long-term blood sugar.',
    biomarker_ids: [1, 2, 5, 6],
  },
  { id: '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b02', name: 'Heart health', description: 'Blood lipids and inflammation.', biomarker_ids: [7, 8, 9, 10] },
  { id: '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b03', name: 'Thyroid check', description: 'Thyroid stimulating hormone and free T4.', biomarker_ids: [3, 4] },
  {
    id: '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b04',
    name: 'Cardiogenetics',
    description: 'APOE genotype and Factor V Leiden: what they mean for heart and vessels.',
    biomarker_ids: [100, 102],
  },
];
