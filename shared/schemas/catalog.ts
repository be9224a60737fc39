/** Catalog representations (spec "not shown"; DESIGN decides): panels and biomarkers as clients need them. */
import * as v from 'valibot';
import { orderedRange } from '../domain/results';
import { ReferenceRange } from '../events/result-shapes';
import type { BiomarkerRecord, PanelRecord } from '../store/catalog';
import { uuid } from './fields';

export const Panel = v.object({
  id: uuid,
  name: v.string(),
  description: v.nullable(v.string()),
  biomarker_ids: v.array(v.pipe(v.number(), v.integer())),
});
export type Panel = v.InferOutput<typeof Panel>;

export const Biomarker = v.object({
  id: v.pipe(v.number(), v.integer()),
  name: v.string(),
  category: v.string(),
  unit_id: v.nullable(v.pipe(v.number(), v.integer())),
  unit: v.nullable(v.string()),
  reference_range_service: v.pipe(v.nullable(ReferenceRange), v.description("the service's own range")),
  kind: v.pipe(v.picklist(['clinical', 'genetic']), v.description('genetic results are listed apart from clinical ones')),
  gene: v.pipe(v.nullable(v.string()), v.description('the gene a genetic biomarker genotypes (e.g. APOE); null for clinical ones')),
  loinc: v.pipe(v.nullable(v.string()), v.description('its LOINC code, as the FHIR export names it; null where it has none')),
});
export type Biomarker = v.InferOutput<typeof Biomarker>;

export function toPanel(panel: PanelRecord): Panel {
  return {
    id: panel.id,
    name: panel.name,
    description: panel.description ?? null,
    biomarker_ids: panel.biomarker_ids,
  };
}

export function toBiomarker(biomarker: BiomarkerRecord): Biomarker {
  return {
    id: biomarker.id,
    name: biomarker.name,
    category: biomarker.category,
    unit_id: biomarker.unit_id ?? null,
    unit: biomarker.unit ?? null,
    reference_range_service: orderedRange(biomarker.reference_range_service),
    kind: biomarker.kind,
    gene: biomarker.gene ?? null,
    loinc: biomarker.loinc ?? null,
  };
}
