import type { BiomarkerRecord } from '../../shared/store/catalog';

/** Sample genetic finding the local lab simulator reports (and the tests reuse): APOE e3/e4. */
export function apoeResult(testedAt: string) {
  return {
    biomarker_id: 100,
    gene: 'APOE',
    genotype: 'e3/e4',
    clinical_significance: 'moderate_risk',
    risk_description: 'One e4 allele: a moderately raised risk of high LDL cholesterol.',
    tested_at: testedAt,
    comment: null,
    variants: [
      {
        name: 'APOE e4',
        clinical_significance: 'moderate_risk',
        description: 'The e4 allele of apolipoprotein E.',
        hgvs_c: 'c.388T>C',
        hgvs_p: 'p.Cys130Arg',
        conditions: [{ condition: 'Hypercholesterolaemia', association_description: 'Raised LDL cholesterol', badge: 'lipids' }],
        snvs: [{ rs_id: 'rs429358', allele: 'C', reference_allele: 'T', hgvs_c: 'c.388T>C', hgvs_p: 'p.Cys130Arg' }],
      },
    ],
  };
}

/** What the simulator reports for a genetic biomarker: APOE's finding above, a plain result for the others. */
const PLAIN_FINDINGS: Record<string, { genotype: string; clinical_significance: string; risk_description: string }> = {
  MTHFR: {
    genotype: 'C/T',
    clinical_significance: 'low_risk',
    risk_description: 'One T allele (heterozygous): enzyme activity slightly reduced, usually without effect on health.',
  },
  F5: { genotype: 'G/G', clinical_significance: 'normal', risk_description: 'No Factor V Leiden variant: no raised clotting risk from this gene.' },
};

export function geneticFinding(biomarker: { id: number; gene?: string; name: string }, testedAt: string) {
  const gene = biomarker.gene ?? biomarker.name;
  if (gene === 'APOE') return { ...apoeResult(testedAt), biomarker_id: biomarker.id };
  const finding = PLAIN_FINDINGS[gene] ?? { genotype: 'reference/reference', clinical_significance: 'normal', risk_description: 'No variant found.' };
  return { biomarker_id: biomarker.id, gene, ...finding, tested_at: testedAt, comment: null, variants: [] };
}

/**
 * A value near the normal range (or the one bound there is), with two decimals: mostly inside it, and
 * about one in five a little outside, so that reports show H and L flags as real ones do.
 */
function plausibleValue(range: { normal_min: number | null; normal_max: number | null } | null): number {
  const min = range?.normal_min ?? (range?.normal_max ?? 10) * 0.3;
  const max = range?.normal_max ?? min * 2.5;
  const spread = Math.random() < 0.2 ? 0.3 : 0;
  const low = min - spread * (max - min);
  const high = max + spread * (max - min);
  return Math.max(0, Math.round((low + Math.random() * (high - low)) * 100) / 100);
}

export const rangeText = (range: { normal_min: number | null; normal_max: number | null } | null) =>
  range ? `${range.normal_min ?? '-'} – ${range.normal_max ?? '-'}` : '-';

/** A value beyond the biomarker's critical limits: above the high one, else below the low one. */
function criticalValue(limits: { critical_low?: number | null; critical_high?: number | null } | undefined): number | undefined {
  if (limits?.critical_high != null) return Math.round(limits.critical_high * 1.2 * 100) / 100;
  if (limits?.critical_low != null) return Math.round(limits.critical_low * 0.5 * 100) / 100;
  return undefined;
}

/** The clinical results the simulator reports for `reported`: plausible values, `criticalId`'s beyond its critical limits. */
export function clinicalSamples(
  reported: number[],
  catalog: { biomarkers: ReadonlyMap<number, BiomarkerRecord> },
  { criticalId, testedAt, preliminary }: { criticalId: number | undefined; testedAt: string; preliminary: boolean },
) {
  return reported.map((id) => {
    const biomarker = catalog.biomarkers.get(id);
    const range = biomarker?.reference_range_service ?? null;
    const critical = id === criticalId ? criticalValue(biomarker) : undefined;
    return {
      biomarker_id: id,
      // A biomarker without critical limits in the catalog is made critical by the lab's own flag.
      value: id === criticalId ? (critical ?? (range?.normal_max ?? 100) * 3) : plausibleValue(range),
      value_operator: 'eq' as const,
      unit_id: biomarker?.unit_id ?? null,
      unit: biomarker?.unit ?? null,
      reference_range_lab: range,
      tested_at: testedAt,
      comment: null,
      result_status: preliminary ? ('preliminary' as const) : ('final' as const),
      ...(id === criticalId && critical === undefined ? { interpretation: 'critical_high' as const } : {}),
    };
  });
}
