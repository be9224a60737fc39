/** Catalog representations (spec "not shown"; DESIGN decides): panels and biomarkers as clients need them. */
import * as v from 'valibot';
import { CONTAINERS, SPECIMEN_TYPES, TEST_METHODS } from '../domain/catalog';
import { orderedRange } from '../domain/results';
import { ReferenceRange } from '../events/result-shapes';
import type { BiomarkerRecord, PanelRecord } from '../store/catalog';
import { uuid } from './fields';

/** A text in each language of the catalog, so a German or Finnish report and email need no English. */
const Texts = v.pipe(v.object({ en: v.string(), de: v.string(), fi: v.string() }), v.description('English, German and Finnish'));

const Specimen = v.object({
  type: v.picklist(SPECIMEN_TYPES),
  container: v.pipe(v.picklist(CONTAINERS), v.description('the tube or card, by its cap colour where it has one (EN ISO 6710)')),
  min_volume_ml: v.pipe(v.number(), v.description('the least volume of the specimen the lab needs, in millilitres')),
});

const fastingHours = v.pipe(v.number(), v.integer(), v.minValue(0), v.description('hours without food before the collection; 0 when none'));
const collectionMethods = v.pipe(
  v.array(v.picklist(TEST_METHODS)),
  v.description("the appointments' test_method values that can collect it: practitioner (a draw at a location), home (a home kit)"),
);
const turnaroundDays = v.pipe(v.number(), v.integer(), v.minValue(1), v.description('days from the sample reaching the lab to its result'));

export const Panel = v.object({
  id: uuid,
  name: v.pipe(v.string(), v.description('its English name (names.en)')),
  names: Texts,
  description: v.nullable(v.string()),
  loinc: v.pipe(v.nullable(v.string()), v.description('its LOINC panel code where the lab orders it as one (a lipid panel); else null')),
  biomarker_ids: v.array(v.pipe(v.number(), v.integer())),
  specimens: v.pipe(v.array(Specimen), v.description('the distinct specimens of its tests, each with the largest volume any of them needs')),
  preparation: v.object({
    fasting_hours: v.pipe(fastingHours, v.description('the strictest fasting of its tests; 0 when none')),
    instructions: v.pipe(v.array(Texts), v.description('the distinct instructions of its tests')),
  }),
  collection_methods: v.pipe(collectionMethods, v.description('the test_method values every one of its tests allows')),
  turnaround_days: v.pipe(turnaroundDays, v.description('the longest turnaround of its tests: the report waits for the last')),
});
export type Panel = v.InferOutput<typeof Panel>;

export const Biomarker = v.object({
  id: v.pipe(v.number(), v.integer()),
  name: v.pipe(v.string(), v.description('its English name (names.en)')),
  names: Texts,
  category: v.pipe(v.string(), v.description('its English category name (category_names.en)')),
  category_names: Texts,
  unit_id: v.nullable(v.pipe(v.number(), v.integer())),
  unit: v.nullable(v.string()),
  reference_range_service: v.pipe(v.nullable(ReferenceRange), v.description("the service's own range")),
  kind: v.pipe(v.picklist(['clinical', 'genetic']), v.description('genetic results are listed apart from clinical ones')),
  gene: v.pipe(v.nullable(v.string()), v.description('the gene a genetic biomarker genotypes (e.g. APOE); null for clinical ones')),
  loinc: v.pipe(v.string(), v.description('its LOINC code: what its result carries (the HL7 ingest matches it) and the FHIR export names it by')),
  specimen: Specimen,
  preparation: v.object({
    fasting_hours: fastingHours,
    instructions: v.pipe(v.nullable(Texts), v.description('what the patient does before the collection; null when nothing')),
  }),
  collection_methods: collectionMethods,
  turnaround_days: turnaroundDays,
});
export type Biomarker = v.InferOutput<typeof Biomarker>;

export function toPanel(panel: PanelRecord): Panel {
  return {
    id: panel.id,
    name: panel.name,
    names: panel.names,
    description: panel.description ?? null,
    loinc: panel.loinc,
    biomarker_ids: panel.biomarker_ids,
    specimens: panel.specimens,
    preparation: panel.preparation,
    collection_methods: panel.collection_methods,
    turnaround_days: panel.turnaround_days,
  };
}

export function toBiomarker(biomarker: BiomarkerRecord): Biomarker {
  return {
    id: biomarker.id,
    name: biomarker.name,
    names: biomarker.names,
    category: biomarker.category,
    category_names: biomarker.category_names,
    unit_id: biomarker.unit_id ?? null,
    unit: biomarker.unit ?? null,
    reference_range_service: orderedRange(biomarker.reference_range_service),
    kind: biomarker.kind,
    gene: biomarker.gene ?? null,
    loinc: biomarker.loinc,
    specimen: biomarker.specimen,
    preparation: biomarker.preparation,
    collection_methods: biomarker.collection_methods,
    turnaround_days: biomarker.turnaround_days,
  };
}
