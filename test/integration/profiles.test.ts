/** POST, GET and PATCH /api/v1/profiles against DynamoDB Local, through the local HTTP server. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { useApi } from '../support/api';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';

const api = useApi();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const newProfile = {
  profile_group_slug: 'demo-clinic',
  first_name: 'Erika',
  last_name: 'Mustermann',
  date_of_birth: '1984-08-12',
  email: 'erika@example.org',
  phone: '+4915112345678',
  sex: 2,
  height: 172.5,
  weight: 64,
  language: 'de',
  handle: 'erika.m',
};

async function stored(id: string) {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.profile(id) }));
  return Item;
}

async function createProfile(body: Record<string, unknown> = newProfile, withKey = key) {
  const res = await api.post('/api/v1/profiles', body, withKey);
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('POST /api/v1/profiles', () => {
  it('creates a profile and answers 201 with exactly the fields of the create response', async () => {
    const res = await api.post('/api/v1/profiles', newProfile, key);
    expect(res.status).toBe(201);
    const { profile_group_slug: _group, ...fields } = newProfile;
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...fields });
  });

  it('stores the profile in its group with created_at and a null updated_at', async () => {
    const { id } = await createProfile();
    expect(await stored(id)).toMatchObject({
      profile_group_slug: 'demo-clinic',
      first_name: 'Erika',
      created_at: expect.any(String),
      updated_at: null,
      transactional_emails_enabled: null,
    });
  });

  it('defaults language to en and optional fields to null', async () => {
    const res = await api.post(
      '/api/v1/profiles',
      { profile_group_slug: 'demo-clinic', first_name: 'Max', last_name: 'Muster', date_of_birth: '1970-01-01' },
      key,
    );
    expect(res.body).toMatchObject({ language: 'en', email: null, phone: null, sex: null, height: null, weight: null, handle: null });
  });

  it.each(['profile_group_slug', 'first_name', 'last_name', 'date_of_birth'])('answers 400 naming %s when it is missing', async (field) => {
    const { [field as keyof typeof newProfile]: _omitted, ...body } = newProfile;
    const res = await api.post('/api/v1/profiles', body, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `${field} is required` });
  });

  it.each([
    ['sex', 3, 'sex must be 1 (male) or 2 (female)'],
    ['sex', '2', 'sex must be 1 (male) or 2 (female)'],
    ['phone', '030 1234567', 'phone must be an E.164 phone number (e.g. +4930123456)'],
    ['email', 'not-an-email', 'email must be a valid email address'],
    ['date_of_birth', '1984-02-30', 'date_of_birth must be a real date (YYYY-MM-DD)'],
    ['date_of_birth', '12.08.1984', 'date_of_birth must be a real date (YYYY-MM-DD)'],
    ['date_of_birth', '2999-01-01', 'date_of_birth must be a date in the past (YYYY-MM-DD)'],
    ['height', 12, 'height must be between 30 and 300 (cm)'],
    ['weight', 900, 'weight must be between 1 and 700 (kg)'],
    ['weight', 'heavy', 'weight must be a number'],
    ['language', 'sv', 'language must be one of en, de, fi'],
    ['first_name', '   ', 'first_name must not be empty'],
    ['first_name', 'x'.repeat(101), 'first_name must be at most 100 characters'],
    ['first_name', 'Ann\u0000', 'first_name must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['first_name', 'Ann\u001b[31m', 'first_name must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['last_name', 'Smith\nJones', 'last_name must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['last_name', 'Sm\ud800ith', 'last_name must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['last_name', 'Smith\u202e', 'last_name must not contain control or invisible formatting characters, or unpaired surrogates'],
    ['first_name', '---', 'first_name must contain a letter'],
    ['last_name', '12', 'last_name must contain a letter'],
    ['profile_group_slug', 'Demo Clinic', 'profile_group_slug must be a slug of lower-case letters, digits and hyphens'],
  ])('answers 400 when %s is %j', async (field, value, message) => {
    const res = await api.post('/api/v1/profiles', { ...newProfile, [field]: value }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  it.each(['Åsa', 'Jürgen', 'Ørjan', 'Žofia', 'Μαρία', '李', "O'Brien-Smith", '😀 Ann'])('accepts %s as a name', async (name) => {
    const res = await api.post('/api/v1/profiles', { ...newProfile, first_name: name }, key);
    expect(res.status).toBe(201);
    expect(res.body.first_name).toBe(name);
  });

  it('answers 400 naming an unknown field', async () => {
    const res = await api.post('/api/v1/profiles', { ...newProfile, blood_type: 'A+' }, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'blood_type is not an allowed field' });
  });

  it('answers 404 for a profile group that does not exist', async () => {
    const res = await api.post('/api/v1/profiles', { ...newProfile, profile_group_slug: 'no-such-group' }, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile group not found' });
  });

  it('answers 404 for an unknown group even when the key could see it', async () => {
    const broad = await apiKey({ profileGroups: ['demo-clinic', 'ghost-clinic'] });
    const res = await api.post('/api/v1/profiles', { ...newProfile, profile_group_slug: 'ghost-clinic' }, broad);
    expect(res.status).toBe(404);
  });

  it('answers 403 for an existing group outside the key access context', async () => {
    const res = await api.post('/api/v1/profiles', { ...newProfile, profile_group_slug: 'partner-clinic' }, key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this profile group' });
  });
});

describe('GET /api/v1/profiles/{id}', () => {
  it('answers every profile field, with timestamps, transactional_emails_enabled null when never set, email_status ok and erased_at null', async () => {
    const { id } = await createProfile();
    const res = await api.get(`/api/v1/profiles/${id}`, key);
    expect(res.status).toBe(200);
    const { profile_group_slug: _group, ...fields } = newProfile;
    expect(res.body).toEqual({
      id,
      ...fields,
      transactional_emails_enabled: null,
      email_status: 'ok',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updated_at: null,
      erased_at: null,
    });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const res = await api.get('/api/v1/profiles/not-a-uuid', key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'id must be a valid UUID' });
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await api.get(`/api/v1/profiles/${UNKNOWN_ID}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Profile not found' });
  });

  it('answers 403 for a profile of a group outside the key access context', async () => {
    const partnerKey = await apiKey({ profileGroups: ['partner-clinic'] });
    const { id } = await createProfile({ ...newProfile, profile_group_slug: 'partner-clinic' }, partnerKey);
    const res = await api.get(`/api/v1/profiles/${id}`, key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This API key has no access to this profile' });
  });

  it('answers 403 to a key without PROFILES_VIEW or IMPERSONATE', async () => {
    const { id } = await createProfile();
    const res = await api.get(`/api/v1/profiles/${id}`, await apiKey({ scopes: ['CREATE_USER'] }));
    expect(res.status).toBe(403);
  });
});

describe('PATCH /api/v1/profiles/{id}', () => {
  it('changes the given fields and answers the profile with created_at and a new updated_at', async () => {
    const { id } = await createProfile();
    const res = await api.patch(`/api/v1/profiles/${id}`, { phone: '+358401234567', language: 'fi', sex: 1 }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, phone: '+358401234567', language: 'fi', sex: 1, first_name: 'Erika' });
    expect(res.body.updated_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    expect(res.body.created_at).toEqual(expect.any(String));
    expect(res.body).not.toHaveProperty('transactional_emails_enabled');
  });

  it('stores the change', async () => {
    const { id } = await createProfile();
    await api.patch(`/api/v1/profiles/${id}`, { date_of_birth: '1985-01-31' }, key);
    expect(await stored(id)).toMatchObject({ date_of_birth: '1985-01-31', updated_at: expect.any(String) });
  });

  it('clears a nullable field set to null', async () => {
    const { id } = await createProfile();
    const res = await api.patch(`/api/v1/profiles/${id}`, { email: null }, key);
    expect(res.body.email).toBeNull();
  });

  it('records transactional_emails_enabled, shown by GET', async () => {
    const { id } = await createProfile();
    await api.patch(`/api/v1/profiles/${id}`, { transactional_emails_enabled: true }, key);
    const res = await api.get(`/api/v1/profiles/${id}`, key);
    expect(res.body.transactional_emails_enabled).toBe(true);
  });

  it('answers 400 for an empty patch', async () => {
    const { id } = await createProfile();
    const res = await api.patch(`/api/v1/profiles/${id}`, {}, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'body must change at least one field' });
  });

  it.each([
    [{ first_name: null }, 'first_name must be a string'],
    [{ profile_group_slug: 'partner-clinic' }, 'profile_group_slug is not an allowed field'],
    [{ id: '3b241101-e2bb-4255-8caf-4136c566a962' }, 'id is not an allowed field'],
    [{ date_of_birth: '2999-12-31' }, 'date_of_birth must be a date in the past (YYYY-MM-DD)'],
    [{ phone: '+0123' }, 'phone must be an E.164 phone number (e.g. +4930123456)'],
  ])('answers 400 for %j and changes nothing', async (patch, message) => {
    const { id } = await createProfile();
    const before = await stored(id);
    const res = await api.patch(`/api/v1/profiles/${id}`, patch, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    expect(await stored(id)).toEqual(before);
  });

  it('answers 404 for an unknown profile and creates nothing', async () => {
    const res = await api.patch(`/api/v1/profiles/${UNKNOWN_ID}`, { language: 'de' }, key);
    expect(res.status).toBe(404);
    expect(await stored(UNKNOWN_ID)).toBeUndefined();
  });

  it('answers 403 for a profile outside the key access context and changes nothing', async () => {
    const partnerKey = await apiKey({ profileGroups: ['partner-clinic'] });
    const { id } = await createProfile({ ...newProfile, profile_group_slug: 'partner-clinic' }, partnerKey);
    const before = await stored(id);
    const res = await api.patch(`/api/v1/profiles/${id}`, { language: 'fi' }, key);
    expect(res.status).toBe(403);
    expect(await stored(id)).toEqual(before);
  });

  it('answers 403 for any profile when the key has no profile group at all', async () => {
    const { id } = await createProfile();
    const res = await api.patch(`/api/v1/profiles/${id}`, { language: 'fi' }, await apiKey({ profileGroups: [] }));
    expect(res.status).toBe(403);
  });
});
