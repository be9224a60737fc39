/**
 * Lab report documents. The DOC item says where the file is and whose it is; the appointment's
 * partition holds a link {id, file_name, added_at, kind, result_status} so the results read lists documents without another call.
 *
 * Access patterns:
 * - a document by id ........ GetItem  PK=DOC#<id>
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentKind, ResultStatus } from '../domain/results';
import { dynamo, tableName } from './client';
import * as keys from './keys/items';
import { withoutKeys } from './query';
import { type NamedItem, named } from './transactions';

export interface DocumentRecord {
  id: string;
  appointment_id: string;
  profile_id: string;
  /** The owning profile's group: the access context of a document. */
  profile_group_slug: string;
  s3_key: string;
  file_name: string;
  content_type: string;
  size: number;
  created_at: string;
  kind: DocumentKind;
  /** The report's status as a whole (shared/domain/results.ts reportResultStatus). */
  result_status: ResultStatus;
}

export const DOCUMENT_NOT_FOUND = 'Document not found';

export async function getDocument(id: string): Promise<DocumentRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.document(id), ConsistentRead: true }));
  return Item ? withoutKeys<DocumentRecord>(Item) : undefined;
}

/** The two items a stored document consists of, for the ingest transaction. */
export function documentPuts(document: DocumentRecord): NamedItem[] {
  return [
    named('document', { Put: { TableName: tableName, Item: { ...keys.document(document.id), ...document } } }),
    named('document', {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.appointmentDocument(document.appointment_id, document.id),
          id: document.id,
          file_name: document.file_name,
          added_at: document.created_at,
          kind: document.kind,
          result_status: document.result_status,
        },
      },
    }),
  ];
}
