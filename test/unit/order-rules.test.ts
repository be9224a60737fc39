/** What an order may hold and what its tests ask (shared/domain/catalog.ts, issue #50 parts 2 and 3). */
import { describe, expect, it } from 'vitest';
import { assertCollectable, patientPreparation, specimensToCollect, type StoredTest } from '../../shared/domain/catalog';
import { InvalidInput } from '../../shared/errors';

const INR = { id: 11, name: 'Prothrombin time (INR)', collection_methods: ['practitioner' as const] };
const VITAMIN_D = { id: 5, name: 'Vitamin D (25-OH)', collection_methods: ['practitioner' as const, 'home' as const] };
const FERRITIN = { id: 1, name: 'Ferritin', collection_methods: ['practitioner' as const] };

/** The whole message of what `refuse` throws (toThrow(string) would pass on a part of it). */
function refusal(refuse: () => void): string {
  try {
    refuse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return (error as Error).message;
  }
  throw new Error('nothing was refused');
}

describe('assertCollectable', () => {
  it('refuses a test the method cannot collect with InvalidInput naming the test, the method and what the test allows', () => {
    expect(refusal(() => assertCollectable('Biomarker', [VITAMIN_D, INR], 'home'))).toBe(
      'Biomarker 11 (Prothrombin time (INR)) cannot be collected by a home kit (test_method home); its collection_methods: practitioner',
    );
  });

  it('names every refused test, in id order', () => {
    expect(refusal(() => assertCollectable('Biomarker', [INR, FERRITIN], 'home'))).toBe(
      'Biomarker 1 (Ferritin) cannot be collected by a home kit (test_method home); its collection_methods: practitioner; ' +
        'Biomarker 11 (Prothrombin time (INR)) cannot be collected by a home kit (test_method home); its collection_methods: practitioner',
    );
  });

  it("names a practitioner's draw when a home-only test is attached to a location appointment", () => {
    const homeOnly = { id: 'a-panel', name: 'Home panel', collection_methods: ['home' as const] };
    expect(refusal(() => assertCollectable('Panel', [homeOnly], 'practitioner'))).toBe(
      "Panel a-panel (Home panel) cannot be collected by a practitioner's draw (test_method practitioner); its collection_methods: home",
    );
  });

  it('accepts tests that allow the method', () => {
    expect(() => assertCollectable('Biomarker', [VITAMIN_D, INR, FERRITIN], 'practitioner')).not.toThrow();
  });

  it('accepts a record stored before collection_methods existed (no field)', () => {
    expect(() => assertCollectable('Biomarker', [{ id: 11, name: 'Prothrombin time (INR)' }], 'home')).not.toThrow();
  });
});

const FAST = { en: 'Fast for 12 hours.', de: '12 Stunden nüchtern.', fi: 'Paastoa 12 tuntia.' };
const THYROID = { en: 'Take thyroid hormone after the draw.', de: 'Schilddrüsenhormon nach der Entnahme.', fi: 'Kilpirauhashormoni näytteen jälkeen.' };
const serum = (min_volume_ml: number, preparation: StoredTest['preparation'] = { fasting_hours: 0, instructions: null }): StoredTest => ({
  specimen: { type: 'serum', container: 'SST (gold)', min_volume_ml },
  preparation,
});

describe('patientPreparation', () => {
  it("takes the strictest fasting and each distinct instruction once, in the profile's language and the tests' order", () => {
    const tests = [
      serum(0.5, { fasting_hours: 0, instructions: THYROID }),
      serum(0.5, { fasting_hours: 12, instructions: FAST }),
      serum(0.5, { fasting_hours: 8, instructions: { ...FAST } }),
    ];
    expect(patientPreparation(tests, 'de')).toEqual({ fasting_hours: 12, instructions: [THYROID.de, FAST.de] });
    expect(patientPreparation(tests, 'fi')).toEqual({ fasting_hours: 12, instructions: [THYROID.fi, FAST.fi] });
  });

  it('skips a test stored without a preparation, and answers no fasting and no instruction for none', () => {
    expect(patientPreparation([{}, serum(0.5, { fasting_hours: 12, instructions: FAST })], 'en')).toEqual({ fasting_hours: 12, instructions: [FAST.en] });
    expect(patientPreparation([], 'en')).toEqual({ fasting_hours: 0, instructions: [] });
  });
});

describe('specimensToCollect', () => {
  it('counts the containers of each type and container: the volumes added up over what one yields, rounded up', () => {
    // Six serum tests of 0.5 ml: 3 ml, and one SST yields 2.5 ml of serum.
    expect(specimensToCollect(Array.from({ length: 6 }, () => serum(0.5)))).toEqual([{ type: 'serum', container: 'SST (gold)', count: 2 }]);
    expect(specimensToCollect(Array.from({ length: 5 }, () => serum(0.5)))).toEqual([{ type: 'serum', container: 'SST (gold)', count: 1 }]);
  });

  it('fills a container exactly when the volumes add up to its yield (no floating-point extra tube)', () => {
    const edta: StoredTest = { specimen: { type: 'whole_blood', container: 'EDTA (lavender)', min_volume_ml: 0.2 } };
    // 20 × 0.2 added as floating-point numbers is 4.000000000000001: a second tube for nothing.
    expect(specimensToCollect(Array.from({ length: 20 }, () => edta))).toEqual([{ type: 'whole_blood', container: 'EDTA (lavender)', count: 1 }]);
  });

  it('lists each type and container in the order it first appears, and skips a test stored without a specimen', () => {
    const card: StoredTest = { specimen: { type: 'capillary_blood', container: 'dried blood spot card', min_volume_ml: 0.1 } };
    const citrate: StoredTest = { specimen: { type: 'plasma', container: 'sodium citrate (light blue)', min_volume_ml: 2.7 } };
    expect(specimensToCollect([card, {}, serum(0.5), citrate, card, serum(0.5)])).toEqual([
      { type: 'capillary_blood', container: 'dried blood spot card', count: 1 },
      { type: 'serum', container: 'SST (gold)', count: 1 },
      { type: 'plasma', container: 'sodium citrate (light blue)', count: 1 },
    ]);
    expect(specimensToCollect([])).toEqual([]);
  });
});
