/**
 * What a test of the catalog asks of a lab and a patient (issue #50): the specimen, the preparation, the
 * ways it can be collected and how long the lab takes; what a panel asks, derived from its tests so it
 * is never typed twice; whether an order's method can collect a test; and what an order's tests ask of
 * the patient (preparation) and the nurse or the kit (the containers to fill). Pure: no I/O.
 */
import { InvalidInput } from '../errors';

/** The spec's `test_method` values: a practitioner's draw at a location, or the patient's home kit. */
export const TEST_METHODS = ['practitioner', 'home'] as const;
export type TestMethod = (typeof TEST_METHODS)[number];

/** The specimens our lab accepts: a closed set, so a lab's worklist and a tube label never meet a new word. */
export const SPECIMEN_TYPES = ['serum', 'plasma', 'whole_blood', 'capillary_blood', 'saliva'] as const;
export type SpecimenType = (typeof SPECIMEN_TYPES)[number];

/**
 * The containers our lab accepts (by cap colour where they have one, EN ISO 6710), each with the specimen
 * volume one yields for testing, in millilitres: a 5 ml serum tube gives about 2.5 ml of serum, a dried
 * blood spot card five spots of 0.1 ml. A closed set, so a tube label never meets a new word and a count
 * of containers is always defined.
 */
export const CONTAINER_YIELD_ML = {
  'SST (gold)': 2.5,
  'EDTA (lavender)': 4,
  'sodium citrate (light blue)': 2.7,
  'dried blood spot card': 0.5,
  'saliva collection tube': 2,
} as const satisfies Record<string, number>;
export type Container = keyof typeof CONTAINER_YIELD_ML;
export const CONTAINERS = Object.keys(CONTAINER_YIELD_ML) as [Container, ...Container[]];

/** The languages of the catalog's texts: a German or Finnish report and email need no English. */
export interface Texts {
  en: string;
  de: string;
  fi: string;
}

export interface Specimen {
  type: SpecimenType;
  /** The tube or card, by its cap colour where it has one (EN ISO 6710), e.g. `SST (gold)`. */
  container: Container;
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
  /** Their distinct specimens (type and container); each with the volume its tests need together (they share the tube). */
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
  for (const { specimen } of tests) {
    const key = `${specimen.type}|${specimen.container}`;
    const seen = specimens.get(key);
    // Summed in microlitres: 0.1 + 0.2 ml is 0.3 ml, not 0.30000000000000004.
    const microlitres = Math.round((seen?.min_volume_ml ?? 0) * 1000) + Math.round(specimen.min_volume_ml * 1000);
    specimens.set(key, { ...specimen, min_volume_ml: microlitres / 1000 });
  }
  return {
    specimens: [...specimens.values()],
    preparation: strictestPreparation(tests.map((test) => test.preparation)),
    collection_methods: TEST_METHODS.filter((method) => tests.every((test) => test.collection_methods.includes(method))),
    turnaround_days: Math.max(0, ...tests.map((test) => test.turnaround_days)),
  };
}

/** The strictest fasting of these preparations and their distinct instructions (by their English text), in their order. */
function strictestPreparation(preparations: readonly Preparation[]): PanelRequirements['preparation'] {
  const instructions = new Map<string, Texts>();
  for (const { instructions: texts } of preparations) if (texts) instructions.set(texts.en, texts);
  return {
    fasting_hours: Math.max(0, ...preparations.map((preparation) => preparation.fasting_hours)),
    instructions: [...instructions.values()],
  };
}

/** A panel or a biomarker as an order names it; `collection_methods` is absent on a record stored before issue #50's data apply. */
export interface OrderableTest {
  id: string | number;
  name: string;
  collection_methods?: readonly TestMethod[];
}

const METHOD_NAMES: Record<TestMethod, string> = { practitioner: "a practitioner's draw", home: 'a home kit' };

/**
 * An attach refuses (400) a test the order's method cannot collect, naming each such test and the method:
 * a home kit cannot bring back a citrate tube. Only what is being attached is judged; what an order holds
 * already is never judged again (confirm and activate do not check it: a drawn tube is never refused). A
 * record without `collection_methods` (stored before the data apply that added them) is not refused: it
 * was orderable before, and refusing it would break clinics until the apply runs.
 */
export function assertCollectable(kind: 'Panel' | 'Biomarker', tests: readonly OrderableTest[], method: TestMethod): void {
  const refused = tests
    .filter((test) => test.collection_methods !== undefined && !test.collection_methods.includes(method))
    .sort((a, b) => String(a.id).localeCompare(String(b.id), 'en', { numeric: true }));
  if (refused.length === 0) return;
  throw new InvalidInput(
    refused
      .map(
        (test) =>
          `${kind} ${test.id} (${test.name}) cannot be collected by ${METHOD_NAMES[method]} (test_method ${method}); ` +
          `its collection_methods: ${test.collection_methods!.join(', ') || 'none'}`,
      )
      .join('; '),
  );
}

/** A test as an order's representation reads it: a record stored before issue #50's data apply lacks both fields. */
export type StoredTest = Partial<Pick<TestRequirements, 'specimen' | 'preparation'>>;

/** What the patient must know: the strictest fasting of the tests and their distinct instructions, in the profile's language. */
export function patientPreparation(tests: readonly StoredTest[], language: keyof Texts): { fasting_hours: number; instructions: string[] } {
  const { fasting_hours, instructions } = strictestPreparation(tests.flatMap((test) => (test.preparation ? [test.preparation] : [])));
  return { fasting_hours, instructions: instructions.map((texts) => texts[language] ?? texts.en) };
}

export interface SpecimenToCollect {
  type: SpecimenType;
  container: Container;
  count: number;
}

/**
 * The containers to draw or fill: per specimen type and container, the volumes the tests need added up and
 * divided by what one container yields, rounded up (at least one). In the order each first appears in
 * `tests` (give them in biomarker id order). Volumes are counted in microlitres, so 5 × 0.1 ml fills one
 * 0.5 ml card exactly instead of a floating-point hair more.
 */
export function specimensToCollect(tests: readonly StoredTest[]): SpecimenToCollect[] {
  const needed = new Map<string, { type: SpecimenType; container: Container; microlitres: number }>();
  for (const { specimen } of tests) {
    if (!specimen) continue;
    const key = `${specimen.type}|${specimen.container}`;
    const entry = needed.get(key) ?? { type: specimen.type, container: specimen.container, microlitres: 0 };
    entry.microlitres += Math.round(specimen.min_volume_ml * 1000);
    needed.set(key, entry);
  }
  return [...needed.values()].map(({ type, container, microlitres }) => {
    // The data files refuse any other container; one stored otherwise still counts as one.
    const yieldMl: number | undefined = CONTAINER_YIELD_ML[container];
    const count = yieldMl ? Math.ceil(microlitres / Math.round(yieldMl * 1000)) : 1;
    return { type, container, count: Math.max(1, count) };
  });
}
