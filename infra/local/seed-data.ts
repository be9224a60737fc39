/**
 * The reference data of infra/data/*.yaml, loaded and checked once: what the local stack seeds and the
 * tests arrange with (the demo and production share one shape because they share these files). Two
 * profile groups, Berlin and Helsinki locations (one inactive), a small catalog; the clinics, phones and
 * mailboxes are invented (example domains, no real people).
 */
import { loadReferenceData } from '../data/reference-data';

const data = loadReferenceData();

export const PROFILE_GROUPS = data.profileGroups;
export const LOCATION_GROUPS = data.locationGroups.map((group) => group.slug);
export const LOCATIONS = data.locations;
export const BIOMARKERS = data.biomarkers;
export const PANELS = data.panels;
