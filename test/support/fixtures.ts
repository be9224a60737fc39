/** Arranging state for integration tests through the same modules the API and `npm start` use. */
import { issueApiKey } from '../../shared/auth/api-keys';
import { SCOPES, type Scope } from '../../shared/domain/scopes';
import { seedDemoData } from '../../infra/local/seed';

export { seedDemoData };
export { BIOMARKERS, LOCATIONS, PANELS } from '../../infra/local/seed-data';

export { BERLIN_MITTE } from './slots';
export const BERLIN_PRENZLAUER_BERG = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a02';
export const BERLIN_INACTIVE = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a03';
export const HELSINKI_KAMPPI = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a11';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export interface KeyOptions {
  scopes?: Scope[];
  profileGroups?: string[];
  locationGroups?: string[];
  /** A sandbox key (lab_test_…): it sees and writes sandbox data only. */
  sandbox?: boolean;
}

/** A fresh API key; by default every scope, the demo-clinic profile group and the berlin location group. */
export async function apiKey(options: KeyOptions = {}): Promise<string> {
  return (await apiKeyWithId(options)).plaintext;
}

/** A fresh API key and its public id (what a status history names as its actor). */
export async function apiKeyWithId(options: KeyOptions = {}): Promise<{ keyId: string; plaintext: string }> {
  return issueApiKey(
    {
      name: 'test key',
      scopes: options.scopes ?? [...SCOPES],
      profileGroups: options.profileGroups ?? ['demo-clinic'],
      locationGroups: options.locationGroups ?? ['berlin'],
      sandbox: options.sandbox,
    },
    new Date(),
  );
}
