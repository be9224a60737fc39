/**
 * Reference data as code (issue #27): infra/data/*.yaml planned and applied to a fresh table (this file's
 * own), as `npm run data -- plan|apply` does, and refused whole when one record is wrong.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan, planReferenceData } from '../../infra/data/apply';
import { DATA_DIR, type ReferenceData, loadReferenceData } from '../../infra/data/reference-data';
import { getLocation } from '../../shared/store/locations';
import { getProfileGroup } from '../../shared/store/profiles';
import { useApi } from '../support/api';
import { apiKey, BERLIN_MITTE } from '../support/fixtures';
import { ESSENTIALS_PANEL, slotIn } from '../support/scenario';
import { tableDigest } from '../support/table';

const run = promisify(execFile);
const api = useApi();
const files = loadReferenceData();
const scratch = mkdtempSync(join(tmpdir(), 'lab-reference-data-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const apply = async (data: ReferenceData = files) => applyPlan(await planReferenceData(data));

/** A copy of infra/data with one file's text changed. */
function dataDirWith(file: string, change: (text: string) => string): string {
  const dir = mkdtempSync(join(scratch, 'data-'));
  cpSync(DATA_DIR, dir, { recursive: true });
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

describe('on a fresh table', () => {
  it('plan lists every record of the files as a create and writes nothing', async () => {
    const before = await tableDigest();
    const plan = await planReferenceData(files);
    const count = files.profileGroups.length + files.locations.length + files.biomarkers.length + files.panels.length;
    expect(plan.changes.filter((change) => change.action === 'create')).toHaveLength(count);
    expect(await tableDigest()).toBe(before);
  });

  it('apply creates everything a first booking needs: a key, a profile and an appointment with a panel then succeed', async () => {
    await apply();
    const key = await apiKey();
    const profile = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'First', last_name: 'Booking', date_of_birth: '1990-01-01' },
      key,
    );
    expect(profile.status).toBe(201);
    const appointment = await api.post('/api/v1/appointments', { profile_id: profile.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(5) }, key);
    expect(appointment.status).toBe(201);
    expect((await api.post(`/api/v1/appointments/${appointment.body.id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key)).status).toBe(200);
  });
});

describe('on a table that holds the files already', () => {
  it('a second apply plans no change and writes nothing', async () => {
    await apply();
    const before = await tableDigest();
    const plan = await planReferenceData(files);
    expect(plan).toEqual({ changes: [], manifest: undefined });
    await applyPlan(plan);
    expect(await tableDigest()).toBe(before);
  });

  it("keeps a location's schedule a clinic changed: apply plans no change to it", async () => {
    await apply();
    const patched = await api.patch(`/api/v1/locations/${BERLIN_MITTE}`, { capacity_per_slot: 4 }, await apiKey());
    expect(patched.status).toBe(200);
    expect((await planReferenceData(files)).changes).toEqual([]);
  });

  it('a changed value is planned as an update of that record only, then stored', async () => {
    await apply();
    const renamed = { ...files, locations: files.locations.map((l) => (l.id === BERLIN_MITTE ? { ...l, name: 'Berlin Mitte (Friedrichstraße)' } : l)) };
    const plan = await planReferenceData(renamed);
    expect(plan.changes.map(({ action, id }) => [action, id])).toEqual([['update', BERLIN_MITTE]]);
    await applyPlan(plan);
    expect((await getLocation(BERLIN_MITTE))?.name).toBe('Berlin Mitte (Friedrichstraße)');
  });

  it("a test's changed turnaround is planned as an update of it and of the panel that holds it (the panel's is derived)", async () => {
    await apply();
    const slower = loadReferenceData(dataDirWith('biomarkers.yaml', (text) => text.replace('turnaround_days: 21', 'turnaround_days: 28')));
    const plan = await planReferenceData(slower);
    expect(plan.changes.map(({ action, kind, id }) => [action, kind, id])).toEqual([
      ['update', 'biomarker', '100'],
      ['update', 'panel', '7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b04'],
    ]);
    expect(plan.changes[1]?.record).toMatchObject({ name: 'Cardiogenetics', turnaround_days: 28 });
  });

  it('a location the files no longer list is deactivated, not deleted: stored, inactive, gone from its list', async () => {
    await apply();
    const key = await apiKey();
    await apply({ ...files, locations: files.locations.filter((location) => location.id !== BERLIN_MITTE) });
    expect(await getLocation(BERLIN_MITTE)).toMatchObject({ id: BERLIN_MITTE, active: false });
    const listed = (await api.get('/api/v1/locations', key)).body.map((location: { id: string }) => location.id);
    expect(listed).not.toContain(BERLIN_MITTE);
  });

  it('a panel the files no longer list is no longer offered: not listed, and attaching it answers 404', async () => {
    await apply();
    const key = await apiKey();
    await apply({ ...files, panels: files.panels.filter((panel) => panel.id !== ESSENTIALS_PANEL) });
    const listed = (await api.get('/api/v1/panels', key)).body.map((panel: { id: string }) => panel.id);
    expect(listed).not.toContain(ESSENTIALS_PANEL);
    const profile = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' },
      key,
    );
    const appointment = await api.post('/api/v1/appointments', { profile_id: profile.body.id, location_id: BERLIN_MITTE, scheduled_at: slotIn(6) }, key);
    expect((await api.post(`/api/v1/appointments/${appointment.body.id}/panels`, { panel_ids: [ESSENTIALS_PANEL] }, key)).status).toBe(404);
  });

  it('a profile group the files no longer list takes no new profiles (404), and listing it again reactivates it', async () => {
    await apply();
    const key = await apiKey({ profileGroups: ['demo-clinic', 'partner-clinic'] });
    const body = { profile_group_slug: 'partner-clinic', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' };
    await apply({ ...files, profileGroups: files.profileGroups.filter((group) => group.slug !== 'partner-clinic') });
    expect((await api.post('/api/v1/profiles', body, key)).status).toBe(404);
    await apply();
    expect((await api.post('/api/v1/profiles', body, key)).status).toBe(201);
  });

  it("stores a profile group's email sender on the group (email_sender_name, email_reply_to), and nothing for a group without one", async () => {
    await apply();
    expect(await getProfileGroup('demo-clinic')).toMatchObject({
      email_sender_name: 'Demo Clinic Berlin',
      email_reply_to: 'appointments@demo-clinic.example.org',
    });
    await apply({ ...files, profileGroups: files.profileGroups.map(({ email_sender_name: _, email_reply_to: __, ...group }) => group) });
    const stored = await getProfileGroup('demo-clinic');
    expect(stored).not.toHaveProperty('email_sender_name');
    expect(stored).not.toHaveProperty('email_reply_to');
    await apply();
  });
});

describe('a file with an invalid record', () => {
  it('is refused naming the file, the path inside it and the reason', () => {
    const dir = dataDirWith('locations.yaml', (text) => text.replace('timezone: Europe/Helsinki', 'timezone: Europe/Atlantis'));
    expect(() => loadReferenceData(dir)).toThrow(/locations\.yaml: 3\.timezone: must be an IANA time zone/);
  });

  it("is refused when a profile group's email reply-to is no email address", () => {
    const dir = dataDirWith('profile-groups.yaml', (text) => text.replace('reply_to: appointments@demo-clinic.example.org', 'reply_to: appointments'));
    expect(() => loadReferenceData(dir)).toThrow(/profile-groups\.yaml: 0\.email\.reply_to: must be a valid email address/);
  });

  it('is refused when a location names a group location-groups.yaml does not list', () => {
    const dir = dataDirWith('locations.yaml', (text) => text.replace('location_group_slug: helsinki', 'location_group_slug: tampere'));
    expect(() => loadReferenceData(dir)).toThrow(/locations\.yaml: 3\.location_group_slug: tampere is not in location-groups\.yaml/);
  });

  it('is refused when opening hours close before they open', () => {
    const dir = dataDirWith('locations.yaml', (text) => text.replace('close: 18:00', 'close: 06:00'));
    expect(() => loadReferenceData(dir)).toThrow(/locations\.yaml: 0\.open_hours: each day must list ranges that open before they close/);
  });

  it('is refused when a slot length is off the 5-minute grid', () => {
    const dir = dataDirWith('locations.yaml', (text) => text.replace('slot_minutes: 15', 'slot_minutes: 7'));
    expect(() => loadReferenceData(dir)).toThrow(/locations\.yaml: 0\.slot_minutes: must be a multiple of 5/);
  });

  it('is refused when a closure date is listed twice', () => {
    const dir = dataDirWith('locations.yaml', (text) => text.replace('date: "2026-12-25"', 'date: "2026-12-24"'));
    expect(() => loadReferenceData(dir)).toThrow(/locations\.yaml: 0\.closures: must list each date once/);
  });

  it('is refused when a biomarker has no specimen, naming the biomarker', () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('  specimen: {type: serum, container: SST (gold), min_volume_ml: 0.5}\n', ''));
    expect(() => loadReferenceData(dir)).toThrow(/biomarkers\.yaml: 0\.specimen: Invalid key: Expected "specimen" but received undefined \(id 1, Ferritin\)$/);
  });

  it('is refused when a biomarker names an unknown collection method, naming the biomarker', () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('collection_methods: [practitioner]', 'collection_methods: [practitioner, pharmacy]'));
    expect(() => loadReferenceData(dir)).toThrow(/biomarkers\.yaml: 0\.collection_methods\.1: must be one of practitioner, home \(id 1, Ferritin\)$/);
  });

  it('is refused when a specimen type is not one the lab accepts', () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('type: serum', 'type: urine'));
    expect(() => loadReferenceData(dir)).toThrow(
      /biomarkers\.yaml: 0\.specimen\.type: must be one of serum, plasma, whole_blood, capillary_blood, saliva \(id 1, Ferritin\)$/,
    );
  });

  it('is refused when a container is not one the lab accepts (its yield unknown), naming the biomarker', () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('container: SST (gold)', 'container: SST (red)'));
    expect(() => loadReferenceData(dir)).toThrow(
      /biomarkers\.yaml: 0\.specimen\.container: must be one of SST \(gold\), EDTA \(lavender\), sodium citrate \(light blue\), dried blood spot card, saliva collection tube \(id 1, Ferritin\)$/,
    );
  });

  it("is refused when the tests of a panel share no collection method, naming the panel and each test's methods", () => {
    // Vitamin D (the first home test) made home-only: Essentials also holds venous-only ferritin and haemoglobin.
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('collection_methods: [practitioner, home]', 'collection_methods: [home]'));
    expect(() => loadReferenceData(dir)).toThrow(
      'panels.yaml: 0.biomarker_ids: its tests share no collection method (Ferritin: practitioner; Haemoglobin: practitioner; ' +
        'Vitamin D (25-OH): home; HbA1c: practitioner, home) (id 7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01, Essentials)',
    );
  });

  it('is refused when two biomarkers of one category name it differently', () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('de: Schilddrüse,', 'de: Schilddrüsenwerte,'));
    expect(() => loadReferenceData(dir)).toThrow(
      /biomarkers\.yaml: 3\.category_names: names the category Thyroid unlike an earlier biomarker \(id 4, Free T4\)$/,
    );
  });

  it('is refused by `npm run data -- plan` before any configuration is read (no table, no stack running)', async () => {
    const dir = dataDirWith('panels.yaml', (text) => text.replace('- 1\n', '- 9999\n'));
    const refused = await run('node_modules/.bin/tsx', ['infra/cli/data-cli.ts', 'plan', '--data-dir', dir], { env: { PATH: process.env.PATH! } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^refused, nothing written: .*panels\.yaml: 0\.biomarker_ids: 9999 not in biomarkers\.yaml/),
    });
  });

  it('makes `npm run data -- apply` exit 2 and write nothing, while the other files are valid', async () => {
    const dir = dataDirWith('biomarkers.yaml', (text) => text.replace('kind: clinical', 'kind: chemical'));
    const before = await tableDigest();
    const refused = await run('node_modules/.bin/tsx', ['infra/cli/data-cli.ts', 'apply', '--data-dir', dir], { env: { ...process.env } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringMatching(/^refused, nothing written: .*biomarkers\.yaml: 0\.kind: /) });
    expect(await tableDigest()).toBe(before);
  });
});
