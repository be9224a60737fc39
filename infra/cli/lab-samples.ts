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
