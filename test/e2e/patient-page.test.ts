/**
 * The patient's page in a real browser (issue #53, docs/patient-page.md): `npm start` as a user runs it, an
 * appointment booked through the API for a person who said yes to emails, its link read from the booking email
 * in the local SES emulator, and the page opened in headless Chromium (the machine's own, driven by
 * playwright-core) at a phone's 375 × 812. The patient moves the appointment by clicking a free slot and sees
 * the new time on the page and through the API, then cancels it with a reason; the same in German.
 *
 * The click-through runs under the page's real Content-Security-Policy, so it proves the hashed inline script
 * runs (the actions are hidden until it does). Only the axe-core scan gets a context that bypasses the CSP, so
 * the test tool's own script can be evaluated in the page. The page's size and first paint are printed, and
 * docs/patient-page.md records them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/free-port';
import { formatAppointmentTime } from '../../shared/email/dates';
import { assertDocumented, recordContractChecks } from '../support/contract';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../../test-output/patient-page.png', import.meta.url));
const KEY = 'lab_patient_page_test';
const BERLIN_MITTE = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01';
const PHONE = { width: 375, height: 812 };
const axe = createRequire(import.meta.url)('axe-core') as { source: string };

const dataDir = mkdtempSync(join(tmpdir(), 'lab-patient-page-'));
let stack: NpmStart | undefined;
let baseUrl: string;
let sesUrl: string;
let browser: Browser | undefined;
recordContractChecks('e2e');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A call of the API with the dev key, its answer checked against docs/openapi.json like every other. */
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const parsed = bytes.length ? (JSON.parse(bytes.toString()) as Json) : {};
  assertDocumented(method, new URL(response.url).pathname, { status: response.status, headers: response.headers, body: parsed });
  return { status: response.status, body: parsed };
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root in a container: no sandbox, no GPU, and /tmp instead of a small /dev/shm.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
  });
}

/** A person with an address of their own who said yes to emails, in `language`. */
async function consentingProfile(language: 'en' | 'de'): Promise<{ id: string; email: string }> {
  const email = `patient-${language}-${Date.now()}@example.com`;
  const created = await api('POST', '/profiles', {
    profile_group_slug: 'demo-clinic',
    first_name: language === 'de' ? 'Erika' : 'Ada',
    last_name: 'Muster',
    date_of_birth: '1984-08-12',
    email,
    language,
  });
  expect(created.status).toBe(201);
  expect((await api('PATCH', `/profiles/${created.body.id}`, { transactional_emails_enabled: true })).status).toBe(200);
  return { id: created.body.id as string, email };
}

/** The free slot starts at Berlin Mitte from tomorrow on: far enough ahead that the page lets the patient change it. */
async function freeSlots(): Promise<string[]> {
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const availability = await api('GET', `/locations/${BERLIN_MITTE}/availability?from=${day(1)}&to=${day(8)}`);
  expect(availability.status).toBe(200);
  return (availability.body.slots as { start: string }[]).map((slot) => slot.start);
}

/**
 * Books the person an appointment and answers it with the link of its page, the one in the booking email, as the
 * patient gets it: the local stack names its own URL as the page's origin (PATIENT_PAGE_ORIGIN), so the email must
 * carry it, in its text and its HTML alike.
 */
async function bookWithLink(person: { id: string; email: string }, slotIndex: number) {
  const scheduledAt = (await freeSlots())[slotIndex]!;
  const booked = await api('POST', '/appointments', { profile_id: person.id, location_id: BERLIN_MITTE, scheduled_at: scheduledAt });
  expect(booked.status).toBe(201);
  const id = booked.body.id as string;
  const email = await bookingEmail(person.email);
  const pageLink = new RegExp(`${baseUrl.replace(/[.]/g, '\\.')}/p/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`);
  const url = pageLink.exec(email.body.text ?? '')?.[0];
  expect(url, `the booking email's text holds its page's link:\n${email.body.text}`).toBeDefined();
  expect(email.body.html).toContain(`href="${url}"`);
  return { id, scheduledAt, url: url! };
}

/** The booking email the SES emulator received for `address` (the email pipeline sends it once the event is handled). */
async function bookingEmail(address: string): Promise<{ subject: string; body: { text?: string; html?: string } }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { emails } = (await (await fetch(`${sesUrl}/store`)).json()) as {
      emails: { destination: { to: string[] }; subject: string; body: { text?: string; html?: string } }[];
    };
    const email = emails.find((each) => each.destination.to.includes(address));
    if (email) return email;
    if (Date.now() > deadline) throw new Error('no booking email within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A phone-sized page under the page's real CSP, recording everything that went wrong and every request it made. */
async function phonePage(context: BrowserContext) {
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  return { page, problems, requests };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();
/** The value the page shows under a term of its details list ("When", "Status"). */
const detail = (page: Page, term: string) => page.locator(`dt:text-is("${term}") + dd`).innerText();

/** Clicks and waits for the reload the page does after a change succeeded. */
async function clickAndReload(page: Page, name: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name, exact: true }).click()]);
}

beforeAll(async () => {
  const ports = {
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    S3_PORT: String(await freePort()),
    SES_PORT: String(await freePort()),
  };
  [browser, stack] = await Promise.all([launchChromium(), npmStart({ ...ports, LAB_DATA_DIR: dataDir, DEV_API_KEY: KEY })]);
  baseUrl = stack.baseUrl;
  sesUrl = `http://127.0.0.1:${ports.SES_PORT}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (stack) await interrupt(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each([
  {
    language: 'en' as const,
    slotIndex: 0,
    words: {
      heading: 'Your appointment',
      when: 'When',
      status: 'Status',
      move: 'Move my appointment',
      moved: 'Your appointment has been moved.',
      reason: 'Reason (optional)',
      cancel: 'Cancel my appointment',
      confirm: 'Yes, cancel it',
      cancelledHeading: 'Your appointment has been cancelled',
      cancelled: 'Cancelled',
    },
  },
  {
    language: 'de' as const,
    slotIndex: 2,
    words: {
      heading: 'Ihr Termin',
      when: 'Wann',
      status: 'Status',
      move: 'Meinen Termin verschieben',
      moved: 'Ihr Termin wurde verschoben.',
      reason: 'Grund (optional)',
      cancel: 'Meinen Termin absagen',
      confirm: 'Ja, Termin absagen',
      cancelledHeading: 'Ihr Termin wurde abgesagt',
      cancelled: 'Abgesagt',
    },
  },
])('the patient on their page ($language), at 375 px under the real CSP', ({ language, slotIndex, words }) => {
  let appointment: Awaited<ReturnType<typeof bookWithLink>>;
  let context: BrowserContext;
  let opened: Awaited<ReturnType<typeof phonePage>>;
  let movedTo: string;

  beforeAll(async () => {
    appointment = await bookWithLink(await consentingProfile(language), slotIndex);
    context = await browser!.newContext({ viewport: PHONE, locale: language });
    opened = await phonePage(context);
    await opened.page.goto(appointment.url, { waitUntil: 'load' });
  }, 60_000);

  afterAll(() => context?.close());

  it(`opens the link from the booking email in ${language}, with the time in Berlin's zone`, async () => {
    const { page } = opened;
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    expect(await text(page, 'h1')).toBe(words.heading);
    expect(await detail(page, words.when)).toBe(formatAppointmentTime(appointment.scheduledAt, 'Europe/Berlin', language));
  });

  it('fits 375 px without scrolling sideways, and loads nothing but the page itself', async () => {
    const { page, requests } = opened;
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    expect(requests).toEqual([`GET ${appointment.url}`]);
  });

  it('runs its hashed script under the CSP: the move and cancel sections are shown', async () => {
    await expect.poll(() => opened.page.getByRole('button', { name: words.move, exact: true }).isVisible()).toBe(true);
    expect(await opened.page.getByRole('button', { name: words.cancel, exact: true }).isVisible()).toBe(true);
  });

  it('moves the appointment to the slot the patient clicks, and shows the new time on the page and through the API', async () => {
    const { page } = opened;
    // Another day than the first: its <details> opened by a click, as the patient does.
    const day = page.locator('#move-form details').nth(1);
    await day.locator('summary').click();
    const radio = day.locator('input[name="scheduled_at"]').nth(1);
    movedTo = (await radio.getAttribute('value'))!;
    await radio.click();
    await clickAndReload(page, words.move);
    expect(await text(page, '#notice')).toBe(words.moved);
    expect(await detail(page, words.when)).toBe(formatAppointmentTime(movedTo, 'Europe/Berlin', language));
    const read = await api('GET', `/appointments/${appointment.id}`);
    expect(Date.parse(read.body.scheduled_at)).toBe(Date.parse(movedTo));
    expect(read.body.status).toBe('scheduled');
  });

  it('cancels it with a reason after the confirmation step, and shows it cancelled and read-only', async () => {
    const { page } = opened;
    const reason = language === 'de' ? 'Ich bin krank.' : 'I am ill.';
    await page.getByLabel(words.reason).fill(reason);
    await page.getByRole('button', { name: words.cancel, exact: true }).click();
    await clickAndReload(page, words.confirm);
    expect(await text(page, 'h1')).toBe(words.cancelledHeading);
    expect(await detail(page, words.status)).toBe(words.cancelled);
    expect(await page.locator('button, input, textarea, form').count()).toBe(0);
    const read = await api('GET', `/appointments/${appointment.id}`);
    expect(read.body).toMatchObject({ status: 'cancelled', cancellation_reason: reason });
    const history = await api('GET', `/appointments/${appointment.id}/history`);
    expect(JSON.stringify(history.body)).toContain('"source":"patient"');
  });

  it('went through with no console error, no uncaught exception, no failed request, and only its own address', () => {
    expect(opened.problems).toEqual([]);
    const path = new URL(appointment.url).pathname;
    for (const request of opened.requests) expect(request).toMatch(new RegExp(`^(GET|POST) ${baseUrl}${path}(/reschedule|/cancel)?$`));
  });
});

describe('the page as measured and judged', () => {
  let appointment: Awaited<ReturnType<typeof bookWithLink>>;

  beforeAll(async () => {
    appointment = await bookWithLink(await consentingProfile('en'), 4);
  }, 60_000);

  it('prints its transfer size and first contentful paint in Chromium, under the real CSP', async () => {
    const context = await browser!.newContext({ viewport: PHONE });
    const { page, problems } = await phonePage(context);
    const response = await page.goto(appointment.url, { waitUntil: 'load' });
    const html = await response!.body();
    const slots = await page.locator('input[name="scheduled_at"]').count();
    await page.waitForFunction("performance.getEntriesByName('first-contentful-paint').length > 0");
    // In the page, as a string: the test's TypeScript has no DOM types.
    const measured = (await page.evaluate(`(() => {
      const navigation = performance.getEntriesByType('navigation')[0];
      return {
        transferSize: navigation.transferSize,
        encodedBodySize: navigation.encodedBodySize,
        decodedBodySize: navigation.decodedBodySize,
        responseEnd: Math.round(navigation.responseEnd),
        firstContentfulPaint: Math.round(performance.getEntriesByName('first-contentful-paint')[0].startTime),
      };
    })()`)) as { transferSize: number; encodedBodySize: number; decodedBodySize: number; responseEnd: number; firstContentfulPaint: number };
    console.log(
      `patient page: ${measured.transferSize} bytes transferred (body ${measured.encodedBodySize} bytes, ${slots} free slots; ` +
        `${gzipSync(html).length} bytes gzipped), response end ${measured.responseEnd} ms, first contentful paint ${measured.firstContentfulPaint} ms`,
    );
    expect(measured.decodedBodySize).toBeLessThan(60_000);
    expect(measured.firstContentfulPaint).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString()).toBe('PNG');
    await context.close();
  });

  it.each([
    ['the appointment page, its actions open', () => appointment.url, true],
    ['the page of an altered link (404)', () => `${appointment.url.slice(0, -2)}xx`, false],
  ])('shows axe-core no serious or critical violation on %s (a context that bypasses the CSP for axe only)', async (_, url, openConfirm) => {
    const context = await browser!.newContext({ viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(url(), { waitUntil: 'load' });
    if (openConfirm) await page.getByRole('button', { name: 'Cancel my appointment', exact: true }).click();
    await page.evaluate(axe.source);
    const results = await page.evaluate('axe.run()');
    const violations = (results as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }).violations;
    const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
    await context.close();
  });
});
