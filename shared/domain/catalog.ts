/**
 * What a test of the catalog asks of a lab and a patient (issue #50): the specimen, the preparation, the
 * ways it can be collected and how long the lab takes; and what a panel asks, derived from its tests so it
 * is never typed twice. Pure: no I/O.
 */

/** The spec's `test_method` values: a practitioner's draw at a location, or the patient's home kit. */
export const TEST_METHODS = ['practitioner', 'home'] as const;
export type TestMethod = (typeof TEST_METHODS)[number];

/** The specimens our lab accepts: a closed set, so a lab's worklist and a tube label never meet a new word. */
export const SPECIMEN_TYPES = ['serum', 'plasma', 'whole_blood', 'capillary_blood', 'saliva'] as const;
export type SpecimenType = (typeof SPECIMEN_TYPES)[number];

/** The languages of the catalog's texts: a German or Finnish report and email need no English. */
export interface Texts {
  en: string;
  de: string;
  fi: string;
}

export interface Specimen {
  type: SpecimenType;
  /** The tube or card, by its cap colour where it has one (EN ISO 6710), e.g. `SST (gold)`. */
  container: string;
  /** The least volume of the specimen the lab needs, in millilitres. */
  min_volume_ml: number;
}

export interface Preparation {
  /** Hours without food before the collection; 0 when none. */
  fasting_hours: number;
  /** What the patient does before the collection; null when nothing. */
  instructions: Texts | null;
}

/** What a test asks: its own specimen, preparation, collection methods and turnaround. */
export interface TestRequirements {
  specimen: Specimen;
  preparation: Preparation;
  collection_methods: TestMethod[];
  turnaround_days: number;
}

/** What a panel asks, derived from its tests. */
export interface PanelRequirements {
  /** Their distinct specimens (type and container); each with the largest volume any of its tests needs. */
  specimens: Specimen[];
  /** The strictest fasting of its tests and their distinct instructions, in the order of its tests. */
  preparation: { fasting_hours: number; instructions: Texts[] };
  /** The methods every one of its tests allows (possibly none: the reference data refuses such a panel). */
  collection_methods: TestMethod[];
  /** The longest turnaround of its tests: the report waits for the last one. */
  turnaround_days: number;
}

export function panelRequirements(tests: readonly TestRequirements[]): PanelRequirements {
  const specimens = new Map<string, Specimen>();
  const instructions = new Map<string, Texts>();
  for (const { specimen, preparation } of tests) {
    const key = `${specimen.type}|${specimen.container}`;
    const seen = specimens.get(key);
    specimens.set(key, { ...specimen, min_volume_ml: Math.max(seen?.min_volume_ml ?? 0, specimen.min_volume_ml) });
    if (preparation.instructions) instructions.set(preparation.instructions.en, preparation.instructions);
  }
  return {
    specimens: [...specimens.values()],
    preparation: {
      fasting_hours: Math.max(0, ...tests.map((test) => test.preparation.fasting_hours)),
      instructions: [...instructions.values()],
    },
    collection_methods: TEST_METHODS.filter((method) => tests.every((test) => test.collection_methods.includes(method))),
    turnaround_days: Math.max(0, ...tests.map((test) => test.turnaround_days)),
  };
}
