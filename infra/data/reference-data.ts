/**
 * The reference data files (infra/data/*.yaml), read and checked as one set: each record against its
 * schema (infra/data/schemas.ts), then across files (unique ids, a location's group listed, a panel's
 * biomarkers in the catalog). Any problem throws, naming the file, the path inside it and the reason, and
 * then nothing may be written: callers validate everything before they apply anything.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as v from 'valibot';
import { parse } from 'yaml';
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
    throw new InvalidReferenceData(`${shown}: ${v.getDotPath(issue) ?? '(the file)'}: ${issue.message}`);
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
    panels: readList(dir, 'panels.yaml', PanelFile),
  };
  unique(shownPath(dir, 'profile-groups.yaml'), data.profileGroups, (group) => group.slug);
  unique(shownPath(dir, 'location-groups.yaml'), data.locationGroups, (group) => group.slug);
  unique(shownPath(dir, 'locations.yaml'), data.locations, (location) => location.id);
  unique(shownPath(dir, 'biomarkers.yaml'), data.biomarkers, (biomarker) => biomarker.id);
  unique(shownPath(dir, 'panels.yaml'), data.panels, (panel) => panel.id);
  const locationGroups = new Set(data.locationGroups.map((group) => group.slug));
  data.locations.forEach((location, i) => {
    if (!locationGroups.has(location.location_group_slug)) {
      throw new InvalidReferenceData(
        `${shownPath(dir, 'locations.yaml')}: ${i}.location_group_slug: ${location.location_group_slug} is not in location-groups.yaml`,
      );
    }
  });
  const biomarkers = new Set(data.biomarkers.map((biomarker) => biomarker.id));
  data.panels.forEach((panel, i) => {
    const missing = panel.biomarker_ids.filter((id) => !biomarkers.has(id));
    if (missing.length > 0)
      throw new InvalidReferenceData(`${shownPath(dir, 'panels.yaml')}: ${i}.biomarker_ids: ${missing.join(', ')} not in biomarkers.yaml`);
  });
  return data;
}
