/** Result representations (SPEC "Appointment results"). */
import type { GeneticResultRecord } from '../store/appointments';

export function toGeneticResult(result: GeneticResultRecord) {
  return {
    status: 'received' as const,
    biomarker_id: result.biomarker_id,
    gene: result.gene,
    genotype: result.genotype,
    clinical_significance: result.clinical_significance,
    risk_description: result.risk_description,
    tested_at: result.tested_at,
    comment: result.comment ?? null,
    variants: result.variants,
  };
}
