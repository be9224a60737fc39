/** Seeds the demo data through the same repositories the API uses. Idempotent: fixed ids, same content. */
import { putBiomarker, putPanel } from '../../shared/store/catalog';
import { putLocation } from '../../shared/store/locations';
import { putProfileGroup } from '../../shared/store/profiles';
import { BIOMARKERS, LOCATIONS, PANELS, PROFILE_GROUPS } from './seed-data';

export async function seedDemoData(): Promise<void> {
  await Promise.all([...PROFILE_GROUPS.map(putProfileGroup), ...LOCATIONS.map(putLocation), ...BIOMARKERS.map(putBiomarker), ...PANELS.map(putPanel)]);
}
