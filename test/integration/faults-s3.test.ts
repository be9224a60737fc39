/**
 * S3 that cannot answer now, injected at the S3 client's SDK edge (test/support/aws-faults.ts), with the
 * SDK's own retries running: a document read answers 503 `{error}` with Retry-After (never a 500, nor a
 * 404 or a 303 for a file S3 could not vouch for) and records no read; a lab report ingest fails as a whole
 * (it throws, so EventBridge retries it) with nothing of the report stored, and its retry stores it once.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { INCOMING_PREFIX, s3 } from '../../shared/documents/s3';
import { useApi } from '../support/api';
import { expectTryAgainLater, type Fault, mentioning, networkError, s3Error, tableDigest, withFault } from '../support/aws-faults';
import { mockEventBridge } from '../support/event-bridge';
import { apiKey, seedDemoData } from '../support/fixtures';
import { clinical, deliver, report, uploadIncoming } from '../support/lab';
import { confirmDraw, scheduleAppointment } from '../support/scenario';

const api = useApi();
const eventBridge = mockEventBridge();
let key: string;

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

async function drawnAppointment(): Promise<string> {
  const id = await scheduleAppointment(api, key);
  await confirmDraw(api, key, id);
  return id;
}

const pdf = (size = 100) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size)]);
const asDocument = (s3Key: string, n: number) => ({ s3_key: s3Key, file_name: `report-${n}.pdf`, content_type: 'application/pdf' });

/** The keys S3 holds under a prefix. */
async function objectsUnder(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key as string).sort();
}

/** A drawn appointment with one reported document; answers the document's id. */
async function reportedDocument(bytes: Buffer): Promise<string> {
  const appointmentId = await drawnAppointment();
  await deliver(report(appointmentId, { clinical_results: [clinical(1, 5)], documents: [asDocument(await uploadIncoming(bytes), 1)] }));
  return (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body.documents[0].id;
}

const labEvents = (detailType: string, appointmentId: string) =>
  eventBridge.entries().filter((entry) => entry.DetailType === detailType && JSON.parse(entry.Detail as string).appointment_id === appointmentId);

describe('GET /api/v1/documents/{id} while S3 cannot answer', () => {
  let small: string;
  let large: string;

  beforeAll(async () => {
    small = await reportedDocument(pdf());
    // Above the 4 MiB a function returns itself: answered with a 303 to S3 after a HEAD of the file.
    large = await reportedDocument(pdf(4 * 1024 * 1024));
  });

  const faults: [string, Fault][] = [
    ['503 ServiceUnavailable', s3Error(503, 'ServiceUnavailable')],
    ['500 InternalError', s3Error(500, 'InternalError')],
    ['a connection reset', networkError('ECONNRESET')],
  ];

  it.each(faults)('answers a small file with 503 and Retry-After when S3 answers %s, recording no read', async (_name, fault) => {
    const before = await tableDigest();
    const { result } = await withFault(s3, fault, mentioning('documents/', 'GetObjectCommand'), () => api.get(`/api/v1/documents/${small}`, key));
    expectTryAgainLater(result);
    expect(await tableDigest()).toBe(before);
  });

  it('answers a large file with 503, not a 404 or a 303, when S3 cannot say whether the file is there', async () => {
    const { result } = await withFault(s3, s3Error(503, 'ServiceUnavailable'), mentioning('documents/', 'HeadObjectCommand'), () =>
      api.get(`/api/v1/documents/${large}`, key),
    );
    expectTryAgainLater(result);
  });

  it('serves the file once S3 answers again', async () => {
    await withFault(s3, networkError('ECONNREFUSED'), mentioning('documents/'), () => api.get(`/api/v1/documents/${small}`, key));
    expect((await api.get(`/api/v1/documents/${small}`, key)).status).toBe(200);
  });
});

describe('a lab report ingest while S3 fails to copy its second file', () => {
  let appointmentId: string;
  let incoming: string[];
  let failure: unknown;
  let digestBefore: string;
  let digestAfterFailure: string;
  let filedAfterFailure: string[];
  let uploadsAfterFailure: string[];
  let outcomes: unknown[];
  let available: number;

  beforeAll(async () => {
    appointmentId = await drawnAppointment();
    incoming = [await uploadIncoming(pdf()), await uploadIncoming(pdf())];
    const detail = report(appointmentId, { clinical_results: [clinical(1, 5), clinical(2, 7)], documents: incoming.map(asDocument) });
    eventBridge.client.resetHistory();
    digestBefore = await tableDigest();
    ({ result: failure } = await withFault(s3, s3Error(503, 'ServiceUnavailable'), mentioning(incoming[1] as string, 'CopyObjectCommand'), () =>
      deliver(detail).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ));
    digestAfterFailure = await tableDigest();
    filedAfterFailure = await objectsUnder(`documents/${appointmentId}/`);
    uploadsAfterFailure = (await Promise.all(incoming.map((upload) => objectsUnder(upload)))).flat();
    // EventBridge's retry of the same event, then a late duplicate of it.
    outcomes = [await deliver(detail), await deliver(detail)];
    // Read here: the mock's history is reset before each test.
    available = labEvents('LabResultsAvailable', appointmentId).length;
  });

  it('fails the ingest as a whole (throws), so that EventBridge retries the event', () => {
    // S3's own error, as the SDK parsed it: not a bug of ours (a TypeError) thrown on the way.
    expect(failure).toMatchObject({ name: 'ServiceUnavailable', $fault: 'server' });
  });

  it('stores nothing of the report in the table when it fails', () => {
    expect(digestAfterFailure).toBe(digestBefore);
  });

  it('leaves no file under documents/ when it fails: the first file, copied already, is deleted again', () => {
    expect(filedAfterFailure).toEqual([]);
  });

  it('keeps both uploads in incoming/ when it fails, for the retry', () => {
    expect(uploadsAfterFailure).toEqual(incoming);
  });

  it('stores the report when retried, and acknowledges a later duplicate', () => {
    expect(outcomes).toEqual([{ outcome: 'stored' }, { outcome: 'duplicate' }]);
  });

  it('answers every result and both documents once', async () => {
    const results = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body;
    expect(results.clinical_results.filter((r: { status: string }) => r.status === 'received')).toHaveLength(2);
    expect(results.documents.map((d: { file_name: string }) => d.file_name).sort()).toEqual(['report-0.pdf', 'report-1.pdf']);
  });

  it('publishes LabResultsAvailable once', () => {
    expect(available).toBe(1);
  });

  it('leaves no orphan file: two documents filed, the uploads gone from incoming/', async () => {
    expect(await objectsUnder(`documents/${appointmentId}/`)).toHaveLength(2);
    for (const upload of incoming) expect(await objectsUnder(upload)).toEqual([]);
  });
});

describe('a lab report ingest while S3 fails to delete an upload after the report was stored', () => {
  let appointmentId: string;
  let upload: string;
  let failure: unknown;
  let uploadAfterFailure: string[];
  let outcome: unknown;
  let available: number;

  beforeAll(async () => {
    appointmentId = await drawnAppointment();
    upload = await uploadIncoming(pdf());
    const detail = report(appointmentId, { clinical_results: [clinical(1, 5)], documents: [asDocument(upload, 0)] });
    eventBridge.client.resetHistory();
    ({ result: failure } = await withFault(s3, networkError('ECONNRESET'), mentioning(INCOMING_PREFIX, 'DeleteObjectCommand'), () =>
      deliver(detail).then(
        () => undefined,
        (error: unknown) => error,
      ),
    ));
    uploadAfterFailure = await objectsUnder(upload);
    outcome = await deliver(detail);
    available = labEvents('LabResultsAvailable', appointmentId).length;
  });

  it('throws, so that EventBridge retries the event', () => {
    // The connection's error, as the SDK gave up on it: not a bug of ours (a TypeError) thrown on the way.
    expect(failure).toMatchObject({ name: 'Error', code: 'ECONNRESET' });
  });

  it('acknowledges the retry as a duplicate, the report stored once with its document', async () => {
    expect(outcome).toEqual({ outcome: 'duplicate' });
    const results = (await api.get(`/api/v1/appointments/${appointmentId}/results`, key)).body;
    expect(results.documents).toHaveLength(1);
    expect(available).toBe(1);
  });

  it('deletes the upload from incoming/ when the retry finds the report stored, its file kept under documents/', async () => {
    expect(uploadAfterFailure).toEqual([upload]);
    expect(await objectsUnder(upload)).toEqual([]);
    expect(await objectsUnder(`documents/${appointmentId}/`)).toHaveLength(1);
  });
});
