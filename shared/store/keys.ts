/**
 * The only module that knows the key formats of the single table (DESIGN.md "DynamoDB: one table").
 *
 * Items of one aggregate share a partition so that one Query reads the whole aggregate.
 * GSI1 serves the lists by tenant or kind; an item that must not be listed (an inactive location)
 * simply has no GSI1 keys, so the index stays sparse and a list costs what it returns.
 */
export const GSI1 = 'GSI1';

export interface ItemKey {
  PK: string;
  SK: string;
}

export const keys = {
  profile: (id: string): ItemKey => ({ PK: `PROFILE#${id}`, SK: 'PROFILE' }),
  profileGroup: (slug: string): ItemKey => ({ PK: `GROUP#${slug}`, SK: 'GROUP' }),
  location: (id: string): ItemKey => ({ PK: `LOCATION#${id}`, SK: 'LOCATION' }),
  panel: (id: string): ItemKey => ({ PK: `PANEL#${id}`, SK: 'PANEL' }),
  biomarker: (id: number): ItemKey => ({ PK: `BIOMARKER#${id}`, SK: 'BIOMARKER' }),
  apiKey: (sha256: string): ItemKey => ({ PK: `APIKEY#${sha256}`, SK: 'APIKEY' }),
} as const;

/** GSI1 entries: the partition names a list, the sort key orders it. */
export const index = {
  /** Active locations of a location group. */
  activeLocation: (locationGroup: string, id: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, GSI1SK: `LOCATION#${id}` }),
  activeLocationsOf: (locationGroup: string) => ({ GSI1PK: `LOCGROUP#${locationGroup}`, skPrefix: 'LOCATION#' }),
  /** The catalog: panels by name, biomarkers by id (zero-padded so the string order is numeric). */
  catalogPanel: (name: string, id: string) => ({ GSI1PK: 'CATALOG', GSI1SK: `PANEL#${name}#${id}` }),
  catalogBiomarker: (id: number) => ({ GSI1PK: 'CATALOG', GSI1SK: `BIOMARKER#${String(id).padStart(10, '0')}` }),
  catalogPanels: { GSI1PK: 'CATALOG', skPrefix: 'PANEL#' },
  catalogBiomarkers: { GSI1PK: 'CATALOG', skPrefix: 'BIOMARKER#' },
  /** API keys by their public key id, for the keys CLI (list, revoke) without a Scan. */
  apiKey: (keyId: string) => ({ GSI1PK: 'APIKEYS', GSI1SK: `APIKEY#${keyId}` }),
  apiKeys: { GSI1PK: 'APIKEYS', skPrefix: 'APIKEY#' },
} as const;
