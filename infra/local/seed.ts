/**
 * Seeds the local stack (and each test's table) from the reference data files, by the same plan and apply
 * as `npm run data -- apply`: a table seeded before gets no write.
 */
import { applyPlan, planReferenceData } from '../data/apply';
import { loadReferenceData } from '../data/reference-data';

export async function seedDemoData(): Promise<void> {
  await applyPlan(await planReferenceData(loadReferenceData()));
}
