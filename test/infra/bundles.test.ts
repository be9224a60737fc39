/**
 * What a bundle carries, built as the stack builds it (infra/bench/bundle-build.ts buildBundle, the
 * construct's LAMBDA_BUNDLE): a route that needs no key must not pay for the key lookup, and so for no AWS
 * SDK client at all (issue #17: GET /health should not pay for DynamoDB). Sizes and times are for
 * `npm run bench`; these are facts about the inputs only.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function';
import { buildBundle, inputsByPackage } from '../../infra/bench/bundle-build';
import { SIDE_MODULES } from '../../infra/route-classes';
import type * as Calendar from '../../shared/email/calendar';
import type { AppointmentFacts } from '../../shared/email/content';
import { routeEntries } from '../../shared/routes';

const publicRoutes = routeEntries.filter(([, route]) => route.scopes.length === 0);
/** The public routes whose credential is a token in the path (secretPath): they read the table, never a key. */
const tokenRoutes = publicRoutes.filter(([, route]) => 'secretPath' in route && route.secretPath);
const openRoutes = publicRoutes.filter((entry) => !tokenRoutes.includes(entry));
/** The patient's page's changes (issue #53): a move or a cancel publishes the appointment's events, as the API's. */
const CHANGES_BY_LINK = new Set(['reschedulePatientAppointment', 'cancelPatientAppointment']);
/** DynamoDB's client, and the SDK core every client is built on. */
const dynamoDbClient = (input: string) => ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'].includes(input) || !input.startsWith('@aws-sdk/client-');
const keyedRoute = routeEntries.find(([name]) => name === 'getProfile')!;

let workdir: string;
beforeAll(async () => {
  // In the repository (git-ignored scratch space), so that esbuild resolves the installed packages.
  await mkdir(join(REPO_ROOT, 'node_modules/.cache'), { recursive: true });
  workdir = await mkdtemp(join(REPO_ROOT, 'node_modules/.cache/bundle-inputs-'));
});
afterAll(() => rm(workdir, { recursive: true, force: true }));

/** The packages (and files of ours) a route's bundle is made of. */
async function inputsOf(name: string, handler: string): Promise<string[]> {
  const { metafile } = await buildBundle(join(REPO_ROOT, handler), join(workdir, name));
  return inputsByPackage(metafile).map(({ input }) => input);
}

let reportBuild: ReturnType<typeof buildBundle> | undefined;
/** The results report's bundle, built once for the tests that read it (the largest build here). */
function buildReport(): ReturnType<typeof buildBundle> {
  const [name, route] = routeEntries.find(([routeName]) => routeName === 'getAppointmentResultsReport')!;
  reportBuild ??= buildBundle(join(REPO_ROOT, route.handler), join(workdir, name), SIDE_MODULES[name]);
  return reportBuild;
}
/** Every file the results report's bundle is built from. */
const reportFiles = async (): Promise<string[]> => Object.keys((await buildReport()).metafile.inputs);

const awsSdk = (input: string) => input.startsWith('@aws-sdk/') || input.startsWith('@smithy/');

describe('the bundle of a route', () => {
  it('needs at least one public route to check', () => {
    expect(publicRoutes.map(([name]) => name)).toContain('health');
  });

  it.each(openRoutes)('%s, which needs no key, carries no AWS SDK and no key lookup', async (name, route) => {
    const inputs = await inputsOf(name, route.handler);
    expect(inputs.filter(awsSdk)).toEqual([]);
    expect(inputs).not.toContain('shared/auth/api-keys.ts');
  });

  it('needs at least one route whose credential is a token to check', () => {
    expect(tokenRoutes.map(([name]) => name)).toContain('unsubscribe');
  });

  it.each(tokenRoutes.filter(([name]) => !CHANGES_BY_LINK.has(name)))(
    '%s, whose token is its credential, carries DynamoDB only and no key lookup',
    async (name, route) => {
      const inputs = await inputsOf(name, route.handler);
      expect(inputs.filter(awsSdk).filter((input) => !dynamoDbClient(input))).toEqual([]);
      expect(inputs).not.toContain('shared/auth/api-keys.ts');
    },
  );

  it.each(tokenRoutes.filter(([name]) => CHANGES_BY_LINK.has(name)))(
    "%s, the patient's change by link, carries DynamoDB and EventBridge only (it publishes the appointment's events as the API does) and no key lookup",
    async (name, route) => {
      const inputs = await inputsOf(name, route.handler);
      expect(inputs.filter(awsSdk).filter((input) => !dynamoDbClient(input) && input !== '@aws-sdk/client-eventbridge')).toEqual([]);
      expect(inputs).not.toContain('shared/auth/api-keys.ts');
    },
  );

  it("of the results report decodes Brotli with Node's own decoder, not the brotli package fontkit names", async () => {
    const inputs = inputsByPackage((await buildReport()).metafile).map(({ input }) => input);
    expect(inputs).toContain('@cantoo/fontkit');
    expect(inputs).toContain('shared/report/brotli-decompress.ts');
    expect(inputs).not.toContain('brotli');
  });

  it("of the results report carries pdf-lib's standard fonts once, from the build pdf-lib embeds with", async () => {
    // The package's ES build holds them (es/packages/standard-fonts); its `standard-fonts` export is another build (dist/).
    const builds = new Set((await reportFiles()).map((file) => /@cantoo\/pdf-lib\/([^/]+)\//.exec(file)?.[1]).filter(Boolean));
    expect([...builds]).toEqual(['es']);
  });

  it('of the results report carries none of the HTML parser and entity tables pdf-lib imports for SVG, XFA and PDF/A', async () => {
    const files = await reportFiles();
    expect(files.filter((file) => /node_modules\/(html-entities|node-html-better-parser)\//.test(file))).toEqual([]);
    expect(files.some((file) => file.endsWith('shared/report/no-html.ts'))).toBe(true);
  });

  it('of the results report carries none of the CSS color parser pdf-lib imports for SVG', async () => {
    const files = await reportFiles();
    expect(files.filter((file) => file.includes('node_modules/culori/'))).toEqual([]);
    expect(files.some((file) => file.endsWith('shared/report/no-svg-colors.ts'))).toBe(true);
  });

  it('of the results report leaves the S3 client to its side module, which it imports only to fetch a CJK font', async () => {
    const { outfile } = await buildReport();
    const files = await reportFiles();
    expect(files.filter((file) => /node_modules\/@aws-sdk\/client-s3\//.test(file))).toEqual([]);
    expect(files.some((file) => file.endsWith('shared/report/font-object.mts'))).toBe(false);
    expect(await readFile(outfile, 'utf8')).toContain('import("./font-object.mjs")');
  });

  it("of a requisition form carries bwip-js's Code 128 encoder from its generic entry, not the library's every symbology", async () => {
    const [name, route] = routeEntries.find(([routeName]) => routeName === 'getAppointmentRequisition')!;
    const { metafile } = await buildBundle(join(REPO_ROOT, route.handler), join(workdir, name), SIDE_MODULES[name]);
    // The generic entry and the encoders it imports (bwipp.mjs, tree-shaken to code128's), no platform entry.
    const barcodeFiles = Object.keys(metafile.inputs).filter((file) => file.includes('node_modules/bwip-js/'));
    expect(barcodeFiles.sort()).toEqual(['node_modules/bwip-js/dist/bwip-js-gen.mjs', 'node_modules/bwip-js/dist/bwipp.mjs']);
    const barcodeBytes = inputsByPackage(metafile).find(({ input }) => input === 'bwip-js')?.bytes ?? 0;
    expect(barcodeBytes).toBeGreaterThan(0);
    expect(barcodeBytes).toBeLessThan(160 * 1024);
  });

  it.each(['getAppointmentResultsReport', 'getAppointment'] as const)('%s, which renders no requisition, carries no barcode library', async (routeName) => {
    const inputs =
      routeName === 'getAppointmentResultsReport' ? await reportFiles() : await inputsOf(routeName, routeEntries.find(([n]) => n === routeName)![1].handler);
    expect(inputs.filter((input) => input.includes('bwip-js'))).toEqual([]);
  });

  it("that calls AWS takes its credentials from Lambda's environment, without the SDK's default chain and its STS and SSO clients", async () => {
    const [name, route] = keyedRoute;
    const inputs = await inputsOf(name, route.handler);
    expect(inputs).toContain('@aws-sdk/credential-provider-env');
    expect(inputs).toContain('shared/lambda-credentials.ts');
    expect(inputs.filter((input) => input === '@aws-sdk/credential-provider-node' || input === '@aws-sdk/nested-clients')).toEqual([]);
  });

  it('carries its own row of the routes table, not the table', async () => {
    const [name, route] = keyedRoute;
    const inputs = await inputsOf(name, route.handler);
    expect(inputs).toContain('shared/routes/profiles.ts');
    expect(inputs.filter((input) => input === 'shared/routes.ts' || (input.startsWith('shared/routes/') && input !== 'shared/routes/profiles.ts'))).toEqual([]);
  });

  it('that makes a webhook secret, but sends no webhook, carries no signing library', async () => {
    const [name, route] = routeEntries.find(([routeName]) => routeName === 'rotateWebhookSecret')!;
    const inputs = await inputsOf(name, route.handler);
    expect(inputs).toContain('shared/webhooks/secrets.ts');
    expect(inputs).not.toContain('shared/webhooks/signing.ts');
  });

  it('of the patient message sender and the reminder sweep carries ics without yup, its schema library, and runes2, its character splitter (shared/email/no-yup.ts, graphemes.ts)', async () => {
    for (const handler of ['functions/events/patient-messages.ts', 'functions/events/message-reminders.ts']) {
      const inputs = await inputsOf(handler.replace(/\W/g, '-'), handler);
      expect(inputs, handler).toContain('ics');
      expect(inputs, handler).toEqual(expect.arrayContaining(['shared/email/no-yup.ts', 'shared/email/graphemes.ts']));
      expect(
        inputs.filter((input) => input === 'yup' || input === 'runes2'),
        handler,
      ).toEqual([]);
    }
  });

  it("of a calendar file, bundled so (no yup, Node's grapheme splitter), still writes what an independent parser (ical.js) reads as the appointment", async () => {
    const { outfile } = await buildBundle(join(REPO_ROOT, 'shared/email/calendar.ts'), join(workdir, 'calendar'));
    const { calendarAttachment } = (await import(pathToFileURL(outfile).href)) as typeof Calendar;
    const appointment: AppointmentFacts = {
      scheduledAt: '2026-12-01T09:00:00.000Z',
      endsAt: '2026-12-01T09:15:00.000Z',
      timeZone: 'Europe/Berlin',
      location: { name: 'Berlin Mitte', address: 'Invalidenstraße 1\n10115 Berlin', mapUrl: null },
      preparation: { fasting_hours: null, instructions: [] },
      specimenCount: 1,
      calendar: { uid: 'appointment-1@lab.example.org', sequence: 2, organizer: { name: 'Demo Clinic', email: 'no-reply@lab.example.org' } },
    };
    // Longer than a line (75 characters): folded by the bundled splitter (shared/email/graphemes.ts), never inside a character.
    const description = 'Bitte bringen Sie Ihren Ausweis mit. Nüchtern bleiben: zwölf Stunden vor der Blutabnahme nichts essen 🩸👩‍⚕️ — danke!';
    const attachment = calendarAttachment(appointment, { method: 'REQUEST', title: 'Blood draw', description });
    const calendar = new ICAL.Component(ICAL.parse(new TextDecoder().decode(attachment.content)));
    const event = calendar.getFirstSubcomponent('vevent')!;
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe('appointment-1@lab.example.org');
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(event.getFirstPropertyValue('location')).toBe('Berlin Mitte, Invalidenstraße 1, 10115 Berlin');
    expect(event.getFirstPropertyValue('description')).toBe(description);
  });

  it('that needs a key carries the key lookup and its DynamoDB client (the check above can tell)', async () => {
    const [name, route] = keyedRoute;
    const inputs = await inputsOf(name, route.handler);
    expect(inputs).toContain('shared/auth/api-keys.ts');
    expect(inputs).toContain('@aws-sdk/client-dynamodb');
  });
});
