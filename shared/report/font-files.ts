/**
 * Where the results report's font files come from. Noto Sans (Latin, Greek, Cyrillic: regular and bold,
 * 1.2 MB) is read from beside the bundle, where the deploy copies it (infra/route-classes.ts PACKAGE_FILES).
 * The CJK fallbacks, Noto Sans SC (10.6 MB) and KR (6.2 MB), would make the function's asset 11 MB zipped
 * and its every deploy and cold start pay for files few reports use: the deploy uploads them as file assets
 * (infra/report-fonts.ts) and names them in REPORT_FONT_CHINESE and REPORT_FONT_KOREAN (font-faces.ts), and a container
 * fetches one from S3 the first time a report needs it (shared/report/fonts.ts keeps it, parsed, after).
 * Where those variables are unset (the local stack, the tests) every face is read from its installed package.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as v from 'valibot';
import { FETCHED_FACES, FONT_FILES, type FontFace } from './font-faces';

type FetchedFace = keyof typeof FETCHED_FACES;
const isFetched = (face: FontFace): face is FetchedFace => face in FETCHED_FACES;

/** An S3 object as `s3://<bucket>/<key>`. */
const S3Object = v.pipe(
  v.string(),
  v.regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+$/, 'must be s3://<bucket>/<key>'),
  v.transform((url) => ({ bucket: url.slice(5, url.indexOf('/', 5)), key: url.slice(url.indexOf('/', 5) + 1) })),
);

/**
 * Read here, once at load, rather than in shared/config.ts: the report renders where no function is
 * configured (its unit tests, the lab CLI's sample PDF), and a malformed value still fails at cold start.
 */
function fetchedFaceObjects(): Partial<Record<FetchedFace, v.InferOutput<typeof S3Object>>> {
  const objects: Partial<Record<FetchedFace, v.InferOutput<typeof S3Object>>> = {};
  for (const [face, variable] of Object.entries(FETCHED_FACES) as [FetchedFace, string][]) {
    const value = process.env[variable];
    if (value === undefined) continue;
    const parsed = v.safeParse(S3Object, value);
    if (!parsed.success) throw new Error(`Invalid configuration: ${variable}: ${parsed.issues[0].message}`);
    objects[face] = parsed.output;
  }
  return objects;
}
const fetchedObjects = fetchedFaceObjects();

const resolveFromHere = createRequire(import.meta.url).resolve;

/** The bytes of a face's file: from S3 when the deploy put it there, else from its installed package. */
export async function readFontFile(face: FontFace): Promise<Uint8Array> {
  const object = isFetched(face) ? fetchedObjects[face] : undefined;
  if (!object) return readFile(resolveFromHere(FONT_FILES[face]));
  // Loaded on first need, deployed from a bundle beside the report's (font-object.mts): a Latin-only report
  // never loads the S3 client.
  const { readFontObject } = await import('./font-object.mjs');
  return readFontObject(object.bucket, object.key);
}
