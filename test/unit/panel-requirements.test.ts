/** A panel's requirements derived from its tests (shared/domain/catalog.ts, issue #50). */
import { describe, expect, it } from 'vitest';
import { panelRequirements, type TestRequirements } from '../../shared/domain/catalog';

const FAST = { en: 'Fast.', de: 'Nüchtern.', fi: 'Paasto.' };
const test = (overrides: Partial<TestRequirements>): TestRequirements => ({
  specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml: 1 },
  preparation: { fasting_hours: 0, instructions: null },
  collection_methods: ['practitioner', 'home'],
  turnaround_days: 1,
  ...overrides,
});

describe('panelRequirements', () => {
  it('takes the strictest fasting and each distinct instruction once', () => {
    const derived = panelRequirements([
      test({ preparation: { fasting_hours: 8, instructions: FAST } }),
      test({ preparation: { fasting_hours: 12, instructions: { ...FAST } } }),
      test({}),
    ]);
    expect(derived.preparation).toEqual({ fasting_hours: 12, instructions: [FAST] });
  });

  it('allows only the methods every test allows, in the order of TEST_METHODS', () => {
    expect(panelRequirements([test({ collection_methods: ['home', 'practitioner'] }), test({})]).collection_methods).toEqual(['practitioner', 'home']);
    expect(panelRequirements([test({ collection_methods: ['home'] }), test({ collection_methods: ['practitioner'] })]).collection_methods).toEqual([]);
  });

  it('lists each specimen (type and container) once with the volume its tests need together, and the longest turnaround', () => {
    const derived = panelRequirements([
      test({ turnaround_days: 3 }),
      test({ specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml: 2.5 } }),
      test({ specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 }, turnaround_days: 2 }),
    ]);
    expect(derived.specimens).toEqual([
      { type: 'serum', container: 'SST (gold)', min_volume_ml: 3.5 },
      { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 1 },
    ]);
    expect(derived.turnaround_days).toBe(3);
  });

  it('sums volumes exactly, in microlitres', () => {
    const spot = { type: 'capillary_blood', container: 'dried blood spot card', min_volume_ml: 0.1 } as const;
    const derived = panelRequirements([test({ specimen: spot }), test({ specimen: spot }), test({ specimen: spot })]);
    expect(derived.specimens).toEqual([{ ...spot, min_volume_ml: 0.3 }]);
  });
});
