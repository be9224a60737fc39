/**
 * LabOrderRequested's versions (issue #50): the detail the code builds is valid against the current
 * published schema, the version 1 schema stays published as it was, and a consumer that reads
 * schema_version can take both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { EVENTS_DIR } from '../../infra/contract/event-schemas';
import { labOrderRequested } from '../../shared/events/lab-order-requested';

const ajv = addFormats(new Ajv({ strict: false }));
const validator = (file: string) => ajv.compile(JSON.parse(readFileSync(join(EVENTS_DIR, file), 'utf8')));
const current = validator('lab-order-requested.schema.json');
const v1 = validator('lab-order-requested.v1.schema.json');

const detail = labOrderRequested(
  {
    appointment_id: '2c59b543-54a0-47b9-891a-61ed02fc2ea7',
    profile_id: '0f0e4c9a-7a51-4b8e-9a3f-2d6c1b5e8f10',
    barcode: 'LAB-0001-ABC',
    test_method: 'practitioner',
    location_id: '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01',
    panel_ids: [],
    biomarker_ids: [2],
    requisition_number: 'RQ-7K3M-9XQ2-HT4W',
    tests: [{ biomarker_id: 2, loinc: '718-7', specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 } }],
  },
  '2026-11-28T10:00:00.000Z',
).detail as Record<string, unknown>;

describe('LabOrderRequested versions', () => {
  it('builds a detail of schema_version 2 that the current schema accepts', () => {
    expect(detail.schema_version).toBe(2);
    expect(current(detail)).toBe(true);
  });

  it('keeps version 1 published: it refuses a version 2 detail, as a strict consumer of version 1 would', () => {
    expect(v1(detail)).toBe(false);
  });

  it('makes version 2 version 1 plus schema_version, requisition_number and tests, nothing else', () => {
    const { schema_version, requisition_number, tests, ...version1 } = detail;
    expect([schema_version, requisition_number, tests].every((field) => field !== undefined)).toBe(true);
    expect(v1(version1)).toBe(true);
  });

  it('refuses a version 2 detail without its requisition number', () => {
    const { requisition_number, ...incomplete } = detail;
    expect(requisition_number).toBeDefined();
    expect(current(incomplete)).toBe(false);
  });
});
