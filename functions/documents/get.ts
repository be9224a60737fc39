// GET /api/v1/documents/{id} — the lab report file itself; above 4 MiB a 303 to a presigned URL (60 s).
import { assertProfileGroupAccess } from '../../shared/auth/access';
import { contentDisposition, DOCUMENT_FILE_DELETED, objectSize, presignDownload, readObject } from '../../shared/documents/s3';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { binary, seeOther } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { DOCUMENT_NOT_FOUND, getDocument } from '../../shared/store/documents';
import * as routes from '../../shared/routes/results';

/**
 * Lambda answers at most 6 MB and base64 adds a third, so 4 MiB (5.6 MB encoded) is the largest file the
 * function can return itself; larger ones are fetched from S3 directly with a presigned URL.
 */
const INLINE_LIMIT_BYTES = 4 * 1024 * 1024;
const PRESIGNED_URL_SECONDS = 60;

export const handler = httpHandler({
  route: routes.getDocument,
  params: IdParams,
  async run({ params, access }) {
    const document = await getDocument(params.id);
    if (!document) throw new NotFound(DOCUMENT_NOT_FOUND);
    assertProfileGroupAccess(access, document.profile_group_slug, 'document');
    access.audit?.read(document.profile_id, `document ${params.id}`);
    if (document.size > INLINE_LIMIT_BYTES) {
      // A URL to a file the retention rule deleted would send the client to S3's 404, and the read would be
      // logged: answer 404 ourselves, as for a small file, which records nothing.
      if ((await objectSize(document.s3_key)) === undefined) throw new NotFound(DOCUMENT_FILE_DELETED);
      const url = await presignDownload(document.s3_key, document.file_name, document.content_type, PRESIGNED_URL_SECONDS);
      return seeOther(url);
    }
    const bytes = await readObject(document.s3_key);
    return binary(bytes, { 'Content-Type': document.content_type, 'Content-Disposition': contentDisposition(document.file_name) });
  },
});
