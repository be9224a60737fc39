/**
 * The test catalog: panels (named sets of biomarkers) and biomarkers.
 *
 * Access patterns:
 * - every panel, by name ........ Query  GSI1 CATALOG / PANEL#<name>#<id>
 * - every biomarker, by id ...... Query  GSI1 CATALOG / BIOMARKER#<zero-padded id>
 * - panels or biomarkers by ids . BatchGetItem PANEL#<id> / BIOMARKER#<id>
 * - the whole catalog (cached) .. Query  GSI1 CATALOG
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { plannedBiomarkerIds } from '../domain/appointment';
import type { PanelRequirements, TestRequirements, Texts } from '../domain/catalog';
import { NotFound } from '../errors';
import { dynamo, tableName } from './client';
import { GSI1 } from './keys';
import * as keys from './keys/items';
import * as index from './keys/index-entries';
import { batchGetAll, listByIndexPrefix, queryAll, withoutKeys } from './query';

export interface ReferenceRange {
  normal_min: number | null;
  normal_max: number | null;
  optimal_min: number | null;
  optimal_max: number | null;
}

/** A panel; its specimens, preparation, collection methods and turnaround derived from its tests when the reference data is loaded. */
export interface PanelRecord extends PanelRequirements {
  id: string;
  /** false: withdrawn by the reference data (infra/data): not listed, not attachable; past orders keep it. */
  active?: boolean;
  /** names.en */
  name: string;
  names: Texts;
  description: string | null;
  /** Its LOINC panel code where the lab orders it as one (a lipid panel), else null. */
  loinc: string | null;
  biomarker_ids: number[];
}

/** A test: what it measures, and what a lab and a patient need to collect it (specimen, preparation, methods, turnaround). */
export interface BiomarkerRecord extends TestRequirements {
  id: number;
  /** false: withdrawn by the reference data (infra/data): not listed, not attachable; past orders keep it. */
  active?: boolean;
  /** names.en */
  name: string;
  names: Texts;
  /** category_names.en */
  category: string;
  category_names: Texts;
  unit_id: number | null;
  unit: string | null;
  reference_range_service: ReferenceRange | null;
  kind: 'clinical' | 'genetic';
  /** The gene a genetic biomarker genotypes (APOE); absent for clinical ones. */
  gene?: string;
  /** Its LOINC code: what its result carries (the HL7 ingest matches it) and the FHIR export names it by. */
  loinc: string;
  /** Values beyond these need a clinician at once (issue #29): critical_low / critical_high. */
  critical_low?: number | null;
  critical_high?: number | null;
}

const offered = <T extends { active?: boolean }>(records: T[]) => records.filter((record) => record.active !== false);

// Withdrawn records stay in the index (and in loadCatalog): results of past orders still name them.
export const listPanels = async () => offered(await listByIndexPrefix<PanelRecord>(index.catalogPanels));
export const listBiomarkers = async () => offered(await listByIndexPrefix<BiomarkerRecord>(index.catalogBiomarkers));

export async function putPanel(panel: PanelRecord): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.panel(panel.id), ...index.catalogPanel(panel.name, panel.id), ...panel },
    }),
  );
}

export async function putBiomarker(biomarker: BiomarkerRecord): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.biomarker(biomarker.id), ...index.catalogBiomarker(biomarker.id), ...biomarker },
    }),
  );
}

/** The panels with these ids that exist (one BatchGetItem per 100 ids). */
export async function getPanels(ids: string[]): Promise<PanelRecord[]> {
  const items = await batchGetAll(ids.map((id) => keys.panel(id)));
  return items.map((item) => withoutKeys<PanelRecord>(item));
}

/** The biomarkers with these ids that exist (one BatchGetItem per 100 ids). */
export async function getBiomarkers(ids: number[]): Promise<BiomarkerRecord[]> {
  const items = await batchGetAll(ids.map((id) => keys.biomarker(id)));
  return items.map((item) => withoutKeys<BiomarkerRecord>(item));
}

function assertAllFound<T>(requested: T[], found: T[], what: string): void {
  const known = new Set(found);
  const missing = requested.filter((id) => !known.has(id));
  if (missing.length > 0) throw new NotFound(`${what} not found: ${missing.join(', ')}`);
}

/** 404 naming every panel id the catalog does not offer (unknown or withdrawn). */
export async function assertPanelsExist(ids: string[]): Promise<PanelRecord[]> {
  const panels = offered(await getPanels(ids));
  assertAllFound(
    ids,
    panels.map((panel) => panel.id),
    'Panel(s)',
  );
  return panels;
}

/** 404 naming every biomarker id the catalog does not offer (unknown or withdrawn). */
export async function assertBiomarkersExist(ids: number[]): Promise<BiomarkerRecord[]> {
  const biomarkers = offered(await getBiomarkers(ids));
  assertAllFound(
    ids,
    biomarkers.map((biomarker) => biomarker.id),
    'Biomarker(s)',
  );
  return biomarkers;
}

/** What an appointment's tests plan: its panels' biomarkers (from the catalog) plus its individual ones. */
export function plannedBiomarkers(tests: { panels: { panel_id: string }[]; biomarkers: { biomarker_id: number }[] }, catalog: Catalog): number[] {
  return plannedBiomarkerIds(
    tests.panels.map((link) => catalog.panels.get(link.panel_id)?.biomarker_ids ?? []),
    tests.biomarkers.map((link) => link.biomarker_id),
  );
}

export interface Catalog {
  panels: ReadonlyMap<string, PanelRecord>;
  biomarkers: ReadonlyMap<number, BiomarkerRecord>;
}

/** The catalog changes rarely and is small: one Query reads all of it, and a container keeps it 5 minutes. */
const CATALOG_TTL_MS = 5 * 60_000;
let cachedCatalog: { catalog: Catalog; loadedAt: number } | undefined;

/** The whole catalog, from the container's cache unless it is older than 5 minutes or `fresh` is asked for. */
export async function loadCatalog(options: { fresh?: boolean } = {}): Promise<Catalog> {
  if (!options.fresh && cachedCatalog && Date.now() - cachedCatalog.loadedAt < CATALOG_TTL_MS) return cachedCatalog.catalog;
  const items = await queryAll({
    TableName: tableName,
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': index.catalogPanels.GSI1PK },
  });
  const panels = new Map<string, PanelRecord>();
  const biomarkers = new Map<number, BiomarkerRecord>();
  for (const item of items) {
    if ((item.PK as string).startsWith('PANEL#')) panels.set(item.id as string, withoutKeys<PanelRecord>(item));
    else biomarkers.set(item.id as number, withoutKeys<BiomarkerRecord>(item));
  }
  cachedCatalog = { catalog: { panels, biomarkers }, loadedAt: Date.now() };
  return cachedCatalog.catalog;
}
