/** Catalog representations (spec "not shown"; DESIGN decides): panels and biomarkers as clients need them. */
import { orderedRange } from '../domain/results';
import type { BiomarkerRecord, PanelRecord } from '../store/catalog';

export function toPanel(panel: PanelRecord) {
  return {
    id: panel.id,
    name: panel.name,
    description: panel.description ?? null,
    biomarker_ids: panel.biomarker_ids,
  };
}

export function toBiomarker(biomarker: BiomarkerRecord) {
  return {
    id: biomarker.id,
    name: biomarker.name,
    category: biomarker.category,
    unit_id: biomarker.unit_id ?? null,
    unit: biomarker.unit ?? null,
    reference_range_service: orderedRange(biomarker.reference_range_service),
    kind: biomarker.kind,
  };
}
