/**
 * The parts of a result that the lab's report (./lab-results-reported.ts) and our answers
 * (shared/schemas/results.ts, the catalog's ranges) share: a reference range and a genetic variant. A module
 * of their own, so that a function answering results does not bundle the whole report's schema (issue #33).
 */
import * as v from 'valibot';
import { isStorableNumber, STORABLE_NUMBER, STORABLE_RANGE } from '../domain/results';

export const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
/** A measured number as the table can hold it (see isStorableNumber). */
export const storableNumber = v.pipe(v.number(), v.check(isStorableNumber, STORABLE_NUMBER), v.description(STORABLE_RANGE));
const bound = v.nullable(storableNumber);

export const ReferenceRange = v.strictObject({ normal_min: bound, normal_max: bound, optimal_min: bound, optimal_max: bound });

const Condition = v.strictObject({ condition: text(500), association_description: text(2000), badge: text(100) });
const Snv = v.strictObject({ rs_id: text(64), allele: text(64), reference_allele: text(64), hgvs_c: text(200), hgvs_p: text(200) });
export const Variant = v.strictObject({
  name: text(200),
  clinical_significance: text(100),
  description: text(2000),
  hgvs_c: text(200),
  hgvs_p: text(200),
  conditions: v.array(Condition),
  snvs: v.array(Snv),
});

export type Variant = v.InferOutput<typeof Variant>;
