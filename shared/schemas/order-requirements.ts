/**
 * What an order's tests ask of the patient and of whoever collects the sample (issue #50): the fields every
 * appointment and home kit order representation carries beside its tests. Computed when answering, from the
 * catalog the container caches (no read of its own), so a catalog change shows on every order within minutes.
 */
import * as v from 'valibot';
import { plannedBiomarkerIds } from '../domain/appointment';
import { CONTAINERS, patientPreparation, SPECIMEN_TYPES, specimensToCollect, type Texts } from '../domain/catalog';
import type { OrderedTest } from '../domain/requisition';
import type { Catalog } from '../store/catalog';

const SpecimenToCollect = v.object({
  type: v.picklist(SPECIMEN_TYPES),
  container: v.pipe(v.picklist(CONTAINERS), v.description('the tube or card, by its cap colour where it has one (EN ISO 6710)')),
  count: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.description('how many: the volumes its tests need added up, divided by what one container yields, rounded up'),
  ),
});

/** The entries of an order representation: spread into Appointment and HomeKitOrder. */
export const orderRequirementEntries = {
  preparation: v.pipe(
    v.object({
      fasting_hours: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('the strictest fasting of its tests, in hours; 0 when none')),
      instructions: v.pipe(v.array(v.string()), v.description("the distinct instructions of its tests, in the profile's language")),
    }),
    v.description('what the patient must know before the collection'),
  ),
  specimens_to_collect: v.pipe(
    v.array(SpecimenToCollect),
    v.description('the containers to draw or fill, in the order of its tests by biomarker id; empty without tests'),
  ),
};
export type OrderRequirements = v.InferOutput<v.ObjectSchema<typeof orderRequirementEntries, undefined>>;

/**
 * The tests are the panels' biomarkers (as the catalog holds them now) and the individual biomarkers, once
 * each, by id: what the lab order will list. A test the catalog lacks, or one stored before the fields
 * existed, adds nothing. Once drawn, the containers are those of the requisition (`ordered`): what the form
 * and the lab's order say was drawn, whatever the catalog says since.
 */
export function toOrderRequirements(
  tests: { panelIds: string[]; biomarkerIds: number[] },
  catalog: Catalog,
  language: keyof Texts,
  ordered?: readonly OrderedTest[],
): OrderRequirements {
  const ids = plannedBiomarkerIds(
    tests.panelIds.map((id) => catalog.panels.get(id)?.biomarker_ids ?? []),
    tests.biomarkerIds,
  );
  const records = ids.flatMap((id) => {
    const record = catalog.biomarkers.get(id);
    return record ? [record] : [];
  });
  return { preparation: patientPreparation(records, language), specimens_to_collect: specimensToCollect(ordered ?? records) };
}
