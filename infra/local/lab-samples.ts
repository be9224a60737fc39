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
