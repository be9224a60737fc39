/**
 * A digest of everything a request could have written: every item of the table (a paginated Scan, which
 * test code may run) and every object of the documents bucket. Two equal digests mean nothing changed in
 * between, whatever the write counters say: the ground truth of "a refused request changes nothing".
 *
 * Its own clients, not the service's: a fault a test injects into the service's clients must not reach it.
 * Items are compared as test/support/table.ts says (an API key's day of last use left out).
 */
import { createHash } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { tableHashes } from '../table';

export interface Digest {
  /** One hash of the whole state, to compare. */
  hash: string;
  /** Each item's and object's hash by its key, to name what changed when two digests differ. */
  entries: Map<string, string>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The table through the one scanner (test/support/table.ts: its own client, an API key's day of last use left out). */
export function digester(options: { s3Endpoint: string; region: string; bucket: string }) {
  // s3rver's fixed credentials (as shared/documents/s3.ts uses them locally).
  const s3 = new S3Client({
    region: options.region,
    endpoint: options.s3Endpoint,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });

  async function items(entries: Map<string, string>): Promise<void> {
    for (const [key, hash] of await tableHashes()) entries.set(`item ${key}`, hash);
  }

  async function objects(entries: Map<string, string>): Promise<void> {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: options.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) entries.set(`object ${object.Key}`, `${object.ETag} ${object.Size}`);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    async digest(): Promise<Digest> {
      const entries = new Map<string, string>();
      await Promise.all([items(entries), objects(entries)]);
      const hash = sha(
        [...entries]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, value]) => `${key}=${value}`)
          .join('\n'),
      );
      return { hash, entries };
    },
    close(): void {
      s3.destroy();
    },
  };
}

/** What differs between two digests: keys added, removed or changed (never the values: they may hold personal data). */
export function difference(before: Digest, after: Digest): string[] {
  const changes: string[] = [];
  for (const [key, value] of after.entries) {
    const old = before.entries.get(key);
    if (old === undefined) changes.push(`added ${key}`);
    else if (old !== value) changes.push(`changed ${key}`);
  }
  for (const key of before.entries.keys()) if (!after.entries.has(key)) changes.push(`removed ${key}`);
  return changes;
}
