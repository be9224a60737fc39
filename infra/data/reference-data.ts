/**
 * The reference data files (infra/data/*.yaml), read and checked as one set: each record against its
 * schema (infra/data/schemas.ts), then across files (unique ids, a location's group listed, a panel's
 * biomarkers in the catalog, a category named alike wherever it appears, a panel whose tests share a
 * collection method). A panel's specimens, preparation, collection methods and turnaround are derived here
 * from its tests, never typed in its file. Any problem throws, naming the file, the path inside it and the reason, and
 * then nothing may be written: callers validate everything before they apply anything.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as v from 'valibot';
import { parse } from 'yaml';
import { panelRequirements } from '../../shared/domain/catalog';
import type { BiomarkerRecord, PanelRecord } from '../../shared/store/catalog';
import type { LocationRecord } from '../../shared/store/locations';
import type { ProfileGroupRecord } from '../../shared/store/profiles';
import { BiomarkerFile, LocationFile, LocationGroupFile, PanelFile, ProfileGroupFile } from './schemas';

// Not infra/api-function's REPO_ROOT: the local stack and the tests load this without the CDK.
const REPO_ROOT = join(import.meta.dirname, '../..');
export const DATA_DIR = join(REPO_ROOT, 'infra/data');

export interface ReferenceData {
  profileGroups: ProfileGroupRecord[];
  locationGroups: { slug: string; name: string }[];
  locations: LocationRecord[];
  biomarkers: BiomarkerRecord[];
  panels: PanelRecord[];
}

export class InvalidReferenceData extends Error {
  override name = 'InvalidReferenceData';
}

/** A file as messages name it: relative to the repository when it is inside, else its full path. */
function shownPath(dir: string, file: string): string {
  const path = join(dir, file);
  const inRepo = relative(REPO_ROOT, path);
  return inRepo.startsWith('..') ? path : inRepo;
}

/** The record a refusal is about, by its id or slug and its name: ` (id 1, Ferritin)`; empty when it has none. */
function recordLabel(record: unknown): string {
  if (typeof record !== 'object' || record === null) return '';
  const { id, slug, name, names } = record as { id?: unknown; slug?: unknown; name?: unknown; names?: { en?: unknown } };
  const key = id !== undefined ? `id ${String(id)}` : slug !== undefined ? `slug ${String(slug)}` : undefined;
  const said = [key, name ?? names?.en].filter((part) => typeof part === 'string');
  return said.length === 0 ? '' : ` (${said.join(', ')})`;
}

function readList<S extends v.GenericSchema>(dir: string, file: string, schema: S): v.InferOutput<S>[] {
  const path = join(dir, file);
  const shown = shownPath(dir, file);
  let document: unknown;
  try {
    document = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InvalidReferenceData(`${shown}: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = v.safeParse(v.array(schema), document ?? []);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const record = Array.isArray(document) ? recordLabel(document[Number(issue.path?.[0]?.key)]) : '';
    throw new InvalidReferenceData(`${shown}: ${v.getDotPath(issue) ?? '(the file)'}: ${issue.message}${record}`);
  }
  return parsed.output;
}

function unique<T>(shown: string, records: T[], idOf: (record: T) => string | number): void {
  const seen = new Set<string | number>();
  records.forEach((record, i) => {
    const id = idOf(record);
    if (seen.has(id)) throw new InvalidReferenceData(`${shown}: ${i}: the id ${id} appears twice`);
    seen.add(id);
  });
}

/** Every file of `dir` (infra/data by default), checked. Throws InvalidReferenceData on the first problem. */
export function loadReferenceData(dir = DATA_DIR): ReferenceData {
  const data: ReferenceData = {
    profileGroups: readList(dir, 'profile-groups.yaml', ProfileGroupFile),
    locationGroups: readList(dir, 'location-groups.yaml', LocationGroupFile),
    locations: readList(dir, 'locations.yaml', LocationFile),
    biomarkers: readList(dir, 'biomarkers.yaml', BiomarkerFile) as BiomarkerRecord[],
    panels: [],
  };
  const panelFiles = readList(dir, 'panels.yaml', PanelFile);
  unique(shownPath(dir, 'profile-groups.yaml'), data.profileGroups, (group) => group.slug);
  unique(shownPath(dir, 'location-groups.yaml'), data.locationGroups, (group) => group.slug);
  unique(shownPath(dir, 'locations.yaml'), data.locations, (location) => location.id);
  unique(shownPath(dir, 'biomarkers.yaml'), data.biomarkers, (biomarker) => biomarker.id);
  unique(shownPath(dir, 'panels.yaml'), panelFiles, (panel) => panel.id);
  const locationGroups = new Set(data.locationGroups.map((group) => group.slug));
  data.locations.forEach((location, i) => {
    if (!locationGroups.has(location.location_group_slug)) {
      throw new InvalidReferenceData(
        `${shownPath(dir, 'locations.yaml')}: ${i}.location_group_slug: ${location.location_group_slug} is not in location-groups.yaml`,
      );
    }
  });
  const categories = new Map<string, string>();
  data.biomarkers.forEach((biomarker, i) => {
    const names = JSON.stringify(biomarker.category_names);
    const before = categories.get(biomarker.category);
    if (before !== undefined && before !== names) {
      throw new InvalidReferenceData(
        `${shownPath(dir, 'biomarkers.yaml')}: ${i}.category_names: names the category ${biomarker.category} unlike an earlier biomarker${recordLabel(biomarker)}`,
      );
    }
    categories.set(biomarker.category, names);
  });
  const biomarkers = new Map(data.biomarkers.map((biomarker) => [biomarker.id, biomarker]));
  data.panels = panelFiles.map((panel, i) => {
    const where = `${shownPath(dir, 'panels.yaml')}: ${i}.biomarker_ids`;
    const missing = panel.biomarker_ids.filter((id) => !biomarkers.has(id));
    if (missing.length > 0) throw new InvalidReferenceData(`${where}: ${missing.join(', ')} not in biomarkers.yaml`);
    const tests = panel.biomarker_ids.map((id) => biomarkers.get(id)!);
    const derived = panelRequirements(tests);
    if (derived.collection_methods.length === 0) {
      const methods = tests.map((test) => `${test.name}: ${test.collection_methods.join(', ')}`).join('; ');
      throw new InvalidReferenceData(`${where}: its tests share no collection method (${methods})${recordLabel(panel)}`);
    }
    return { ...panel, ...derived };
  });
  return data;
}
