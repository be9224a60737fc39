/** GET /api/v1/panels and GET /api/v1/biomarkers: the catalog (spec "not shown"; DESIGN decides). */
import { beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { apiKey, BIOMARKERS, PANELS, seedDemoData } from '../support/fixtures';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey({ scopes: ['TEST_SESSIONS_VIEW'] });
});

describe('GET /api/v1/panels', () => {
  it('lists every panel by name with its biomarker ids', async () => {
    const res = await api.get('/api/v1/panels', key);
    expect(res.status).toBe(200);
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(PANELS.map((p) => p.name).sort());
    expect(res.body.find((p: { name: string }) => p.name === 'Thyroid check')).toEqual({
      id: '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b03',
      name: 'Thyroid check',
      description: 'Thyroid stimulating hormone and free T4.',
      biomarker_ids: [3, 4],
    });
  });

  it.each(['TEST_SESSIONS_SCHEDULE', 'home_kit_orders_manage', 'RESULTS_VIEW'] as const)('is readable with %s', async (scope) => {
    const res = await api.get('/api/v1/panels', await apiKey({ scopes: [scope] }));
    expect(res.status).toBe(200);
  });

  it('answers 403 to a key without a catalog-reading scope', async () => {
    const res = await api.get('/api/v1/panels', await apiKey({ scopes: ['SHIPMENTS_MANAGE'] }));
    expect(res.status).toBe(403);
  });
});

describe('GET /api/v1/biomarkers', () => {
  it('lists every biomarker in numeric id order', async () => {
    const res = await api.get('/api/v1/biomarkers', key);
    expect(res.status).toBe(200);
    expect(res.body.map((b: { id: number }) => b.id)).toEqual(BIOMARKERS.map((b) => b.id).sort((a, b) => a - b));
  });

  it('answers name, category, unit and the service reference range of a clinical biomarker', async () => {
    const res = await api.get('/api/v1/biomarkers', key);
    expect(res.body.find((b: { id: number }) => b.id === 1)).toEqual({
      id: 1,
      name: 'Ferritin',
      category: 'Iron',
      unit_id: 1,
      unit: 'ng/mL',
      reference_range_service: { normal_min: 30, normal_max: 400, optimal_min: 50, optimal_max: 150 },
      kind: 'clinical',
      gene: null,
      loinc: '2276-4',
    });
  });

  it('marks genetic biomarkers as kind genetic, without a unit', async () => {
    const res = await api.get('/api/v1/biomarkers', key);
    expect(res.body.find((b: { id: number }) => b.id === 100)).toMatchObject({ kind: 'genetic', unit: null, unit_id: null, gene: 'APOE' });
  });
});
