/** Lab report files: ingest moves them from incoming/ to their final key; GET /api/v1/documents/{id} serves them. */
import { createHash, randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteObject, objectSize, s3 } from '../../shared/documents/s3';
import { getDocument } from '../../shared/store/documents';
import { useApi } from '../support/api';
import { assertDocumented } from '../support/contract';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData, UNKNOWN_ID } from '../support/fixtures';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { confirmDraw, scheduleAppointment } from '../support/scenario';

const api = useApi();
mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A drawn appointment with one reported document of `bytes`; answers the document id. */
async function reportedDocument(bytes: Buffer, fileName = 'lab-report.pdf'): Promise<{ appointmentId: string; documentId: string; incoming: string }> {
  const appointmentId = await scheduleAppointment(api, key);
  await confirmDraw(api, key, appointmentId);
  const incoming = await uploadIncoming(bytes);
  await deliver(report(appointmentId, { documents: [{ s3_key: incoming, file_name: fileName, content_type: 'application/pdf' }] }));
  const results = await api.get(`/api/v1/appointments/${appointmentId}/results`, key);
  return { appointmentId, documentId: results.body.documents[0].id, incoming };
}

describe('GET /api/v1/documents/{id}', () => {
  it('lists the reported document in the results with its file name, kind, the report status and when it was stored', async () => {
    const { appointmentId, documentId } = await reportedDocument(Buffer.from('%PDF-1.7 test'), 'Report 2026-11-20.pdf');
    const results = await api.get(`/api/v1/appointments/${appointmentId}/results`, key);
    expect(results.body.documents).toEqual([
      { id: documentId, file_name: 'Report 2026-11-20.pdf', kind: 'lab_report', result_status: 'final', created_at: expect.any(String) },
    ]);
  });

  it('lists a preliminary, then a final, then a corrected report newest first, each with the status of its report', async () => {
    const appointmentId = await scheduleAppointment(api, key);
    await api.post(`/api/v1/appointments/${appointmentId}/biomarkers`, { biomarker_ids: [2, 3] }, key);
    await confirmDraw(api, key, appointmentId);
    const sendWithPdf = async (name: string, results: Record<string, unknown>[]) => {
      const documents = [{ s3_key: await uploadIncoming(Buffer.from('%PDF-1.7 ' + name)), file_name: name, content_type: 'application/pdf' }];
      await deliver(report(appointmentId, { clinical_results: results, documents }));
    };
    await sendWithPdf('first.pdf', [{ ...clinical(2, 14), result_status: 'preliminary' }, clinical(3, 2)]);
    await sendWithPdf('second.pdf', [clinical(2, 14.5)]);
    await sendWithPdf('third.pdf', [{ ...clinical(2, 13.9), result_status: 'corrected' }]);
    const listed = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body.documents;
    expect(listed.map((d: { file_name: string; result_status: string }) => [d.file_name, d.result_status])).toEqual([
      ['third.pdf', 'corrected'],
      ['second.pdf', 'final'],
      ['first.pdf', 'preliminary'],
    ]);
    const created = listed.map((d: { created_at: string }) => d.created_at);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('answers the exact bytes that the lab uploaded', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]);
    const { documentId } = await reportedDocument(bytes);
    const raw = await fetchRaw(`/api/v1/documents/${documentId}`);
    expect(raw.status).toBe(200);
    expect(sha256(raw.bytes)).toBe(sha256(bytes));
  });

  it('answers with the stored content type, as an attachment, not cacheable', async () => {
    const { documentId } = await reportedDocument(Buffer.from('%PDF-1.7 headers'));
    const raw = await fetchRaw(`/api/v1/documents/${documentId}`);
    expect(raw.headers.get('content-type')).toBe('application/pdf');
    expect(raw.headers.get('content-disposition')).toMatch(/^attachment; filename="lab-report\.pdf"/);
    expect(raw.headers.get('cache-control')).toBe('no-store');
  });

  it('removes the upload from incoming/ once stored', async () => {
    const { incoming } = await reportedDocument(Buffer.from('%PDF-1.7 moved'));
    expect(await objectSize(incoming)).toBeUndefined();
  });

  it('answers 303 to a presigned URL for a file above 5 MB, and that URL serves the file', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(5 * 1024 * 1024 + 10)]);
    const { documentId } = await reportedDocument(bytes);
    const raw = await fetchRaw(`/api/v1/documents/${documentId}`);
    expect(raw.status).toBe(303);
    const location = raw.headers.get('location') as string;
    expect(location).toContain('X-Amz-Expires=60');
    const fromS3 = await fetch(location);
    expect(sha256(Buffer.from(await fromS3.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('answers 404 saying so for a document whose file the retention rule deleted', async () => {
    const { documentId } = await reportedDocument(Buffer.from('%PDF-1.7 old'));
    // What the bucket's lifecycle rule does after documentRetentionYears (docs/privacy.md "Privacy").
    await deleteObject((await getDocument(documentId))?.s3_key as string);
    const res = await api.get(`/api/v1/documents/${documentId}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'The file of this document was deleted after its retention period' });
  });

  it('answers 404 saying so, not a 303 to a missing file, for a document above 4 MiB whose file the retention rule deleted', async () => {
    const { documentId } = await reportedDocument(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4 * 1024 * 1024)]));
    await deleteObject((await getDocument(documentId))?.s3_key as string);
    const res = await api.get(`/api/v1/documents/${documentId}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'The file of this document was deleted after its retention period' });
  });

  it('answers 404 for an unknown document', async () => {
    const res = await api.get(`/api/v1/documents/${UNKNOWN_ID}`, key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Document not found' });
  });

  it('answers 400 for an id that is not a UUID', async () => {
    expect((await api.get('/api/v1/documents/report.pdf', key)).status).toBe(400);
  });

  it('answers 403 for a document of a profile outside the key context', async () => {
    const { documentId } = await reportedDocument(Buffer.from('%PDF-1.7 private'));
    const res = await api.get(`/api/v1/documents/${documentId}`, await apiKey({ profileGroups: ['partner-clinic'] }));
    expect(res.status).toBe(403);
  });

  it('refuses a report whose document was never uploaded', async () => {
    const appointmentId = await scheduleAppointment(api, key);
    await confirmDraw(api, key, appointmentId);
    await expect(
      deliver(report(appointmentId, { documents: [{ s3_key: 'incoming/missing.pdf', file_name: 'x.pdf', content_type: 'application/pdf' }] })),
    ).rejects.toThrow('documents[0] was not uploaded');
  });

  it('copies no file of a report whose second document was never uploaded, keeping the first upload in incoming/', async () => {
    const appointmentId = await scheduleAppointment(api, key);
    await confirmDraw(api, key, appointmentId);
    const uploaded = await uploadIncoming(Buffer.from('%PDF-1.7 first'));
    const documents = [uploaded, 'incoming/missing.pdf'].map((s3Key) => ({ s3_key: s3Key, file_name: 'x.pdf', content_type: 'application/pdf' }));
    await expect(deliver(report(appointmentId, { documents }))).rejects.toThrow('documents[1] was not uploaded');
    expect({ filed: await objectsUnder(`documents/${appointmentId}/`), kept: await objectsUnder(uploaded) }).toEqual({ filed: [], kept: [uploaded] });
  });
});

/** The keys the bucket holds under a prefix. */
async function objectsUnder(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key as string).sort();
}

async function fetchRaw(path: string) {
  const response = await fetch(`${api.url()}${path}`, { headers: { 'x-api-key': key }, redirect: 'manual' });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isJson = response.headers.get('content-type')?.startsWith('application/json');
  assertDocumented('GET', path, { status: response.status, headers: response.headers, body: isJson ? JSON.parse(bytes.toString()) : bytes });
  return { status: response.status, headers: response.headers, bytes };
}
