/** GET /api/v1/panels and GET /api/v1/biomarkers: the catalog (spec "not shown"; DESIGN decides). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Biomarker, Panel } from '../../shared/schemas/catalog';
import { useApi } from '../support/api';
import { apiKey, BIOMARKERS, PANELS, seedDemoData } from '../support/fixtures';

const api = useApi();
let key: string;

const THYROID_HORMONE = {
  en: "If you take thyroid hormone, take that day's dose after the draw.",
  de: 'Wenn Sie Schilddrüsenhormon einnehmen, nehmen Sie die Tagesdosis erst nach der Blutentnahme ein.',
  fi: 'Jos käytät kilpirauhashormonia, ota päivän annos vasta näytteenoton jälkeen.',
};
const FASTING_12 = {
  en: 'Eat and drink nothing but water for 12 hours before the draw.',
  de: 'Essen und trinken Sie 12 Stunden vor der Blutentnahme nichts außer Wasser.',
  fi: 'Älä syö tai juo mitään muuta kuin vettä 12 tuntiin ennen verinäytettä.',
};

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
      names: { en: 'Thyroid check', de: 'Schilddrüsen-Check', fi: 'Kilpirauhasen tutkimus' },
      description: 'Thyroid stimulating hormone and free T4.',
      loinc: null,
      biomarker_ids: [3, 4],
      specimens: [{ type: 'serum', container: 'SST (gold)', min_volume_ml: 1 }],
      preparation: { fasting_hours: 0, instructions: [THYROID_HORMONE] },
      collection_methods: ['practitioner'],
      turnaround_days: 1,
    });
  });

  it("derives a panel's requirements from its tests: the strictest fasting, the methods all allow, the longest turnaround, their distinct specimens", async () => {
    const panels: Panel[] = (await api.get('/api/v1/panels', key)).body;
    const byName = (name: string) => panels.find((p) => p.name === name)!;
    expect(byName('Heart health').preparation).toEqual({ fasting_hours: 12, instructions: [FASTING_12] });
    expect(byName('Essentials')).toMatchObject({
      // Ferritin and haemoglobin are venous only: the panel too, though vitamin D and HbA1c fit a home kit.
      collection_methods: ['practitioner'],
      specimens: [
        { type: 'serum', container: 'SST (gold)', min_volume_ml: 0.5 },
        { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 },
        { type: 'capillary_blood', container: 'dried blood spot card', min_volume_ml: 0.2 },
      ],
      turnaround_days: 5,
    });
    expect(byName('Cardiogenetics')).toMatchObject({ collection_methods: ['practitioner', 'home'], turnaround_days: 21 });
  });

  it('names a LOINC panel code only for the panel the lab orders as one', async () => {
    const panels: Panel[] = (await api.get('/api/v1/panels', key)).body;
    expect(panels.filter((p) => p.loinc !== null).map((p) => [p.name, p.loinc])).toEqual([['Lipid panel', '24331-1']]);
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
      names: { en: 'Ferritin', de: 'Ferritin', fi: 'Ferritiini' },
      category_names: { en: 'Iron', de: 'Eisen', fi: 'Rauta' },
      specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml: 0.5 },
      preparation: { fasting_hours: 0, instructions: null },
      collection_methods: ['practitioner'],
      turnaround_days: 1,
    });
  });

  it('answers every biomarker with its LOINC code, names and category in en/de/fi, a specimen, a collection method and a turnaround', async () => {
    const biomarkers: Biomarker[] = (await api.get('/api/v1/biomarkers', key)).body;
    for (const b of biomarkers) {
      expect(b.loinc, b.name).toMatch(/^\d{1,7}-\d$/);
      expect(b.names.en).toBe(b.name);
      expect(b.category_names.en).toBe(b.category);
      expect([b.names.de, b.names.fi, b.category_names.de, b.category_names.fi].every((text) => text.length > 0)).toBe(true);
      expect(b.collection_methods.length).toBeGreaterThan(0);
      expect(b.turnaround_days).toBeGreaterThanOrEqual(1);
    }
  });

  it('holds a venous-only coagulation test: INR from citrate plasma, drawn by a practitioner', async () => {
    const biomarkers: Biomarker[] = (await api.get('/api/v1/biomarkers', key)).body;
    expect(biomarkers.find((b) => b.loinc === '34714-6')).toMatchObject({
      name: 'Prothrombin time (INR)',
      specimen: { type: 'plasma', container: 'sodium citrate (light blue)', min_volume_ml: 2.7 },
      collection_methods: ['practitioner'],
    });
  });

  it('holds tests a home kit can take: HbA1c on a dried blood spot card, genetic tests from saliva', async () => {
    const biomarkers: Biomarker[] = (await api.get('/api/v1/biomarkers', key)).body;
    expect(biomarkers.find((b) => b.id === 6)).toMatchObject({
      specimen: { type: 'capillary_blood', container: 'dried blood spot card' },
      collection_methods: ['practitioner', 'home'],
    });
    for (const b of biomarkers.filter((b) => b.kind === 'genetic')) {
      expect(b).toMatchObject({ specimen: { type: 'saliva' }, collection_methods: ['practitioner', 'home'], preparation: { fasting_hours: 0 } });
    }
  });

  it('marks genetic biomarkers as kind genetic, without a unit', async () => {
    const res = await api.get('/api/v1/biomarkers', key);
    expect(res.body.find((b: { id: number }) => b.id === 100)).toMatchObject({ kind: 'genetic', unit: null, unit_id: null, gene: 'APOE' });
  });
});
