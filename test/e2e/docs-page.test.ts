/**
 * The docs page in a real browser: `npm start` as a user runs it, and http://127.0.0.1:<port>/docs opened
 * in headless Chromium (the machine's own, driven by playwright-core; CI installs Debian's `chromium`).
 * One browser and one page load for the whole file; each test reads what that load did.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/free-port';
import { assertDocumented, recordContractChecks } from '../support/contract';
import { interrupt, type NpmStart, npmStart } from '../support/npm-start';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../../test-output/docs-page.png', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'lab-docs-'));
let stack: NpmStart | undefined;
let baseUrl: string;
let browser: Browser | undefined;
let page: Page;
/** Everything that went wrong while the page loaded: console errors, exceptions, failed requests, answers off the contract. */
const problems: string[] = [];
const contractChecks: Promise<void>[] = [];
recordContractChecks('e2e');

/** Checks a response against docs/openapi.json like every other the suites receive. */
async function checkAgainstContract(method: string, url: string, status: number, headers: Headers, bytes: Buffer): Promise<void> {
  const body = headers.get('content-type')?.startsWith('application/json') ? JSON.parse(bytes.toString()) : bytes;
  assertDocumented(method, new URL(url).pathname, { status, headers, body });
}

async function fetchChecked(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  await checkAgainstContract('GET', response.url, response.status, response.headers, bytes);
  return { status: response.status, body: JSON.parse(bytes.toString()) };
}

function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install it (Debian/Ubuntu: sudo apt-get install chromium) ` + 'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root in a container: no sandbox, no GPU, and /tmp instead of a small /dev/shm.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
  });
}

beforeAll(async () => {
  const ports = { PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), S3_PORT: String(await freePort()) };
  [browser, stack] = await Promise.all([launchChromium(), npmStart({ ...ports, LAB_DATA_DIR: dataDir, DEV_API_KEY: 'lab_docs_page_test' })]);
  baseUrl = stack.baseUrl;
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    if (!response.url().startsWith(baseUrl)) return;
    contractChecks.push(
      response
        .body()
        .then((bytes) => checkAgainstContract(response.request().method(), response.url(), response.status(), new Headers(response.headers()), bytes))
        .catch((error: Error) => void problems.push(`off the contract: ${error.message}`)),
    );
  });
  await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
  // Swagger UI has rendered the document once the operations are on the page.
  await page.locator('.opblock').first().waitFor();
  await Promise.all(contractChecks);
});

afterAll(async () => {
  await browser?.close();
  if (stack) await interrupt(stack);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the docs page (GET /docs)', () => {
  it('loads with no console error, no uncaught exception and no failed request', () => {
    expect(problems).toEqual([]);
  });

  it('shows every operation and every webhook of the OpenAPI document the API serves', async () => {
    const document = (await fetchChecked('/api/v1/openapi.json')).body as { paths: Record<string, object>; webhooks: Record<string, object> };
    const documented = Object.entries({ ...document.paths, ...document.webhooks }).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method} ${path}`),
    );
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks
        .filter((block) => block.checkVisibility())
        .map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase();
          return `${method} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`;
        }),
    );
    expect(documented.length).toBeGreaterThan(0);
    expect(documented).toContain('post AppointmentStatusChanged');
    expect(shown.sort()).toEqual(documented.sort());
  });

  it("links each webhook event type from the description to its webhook's section, opened (Swagger UI opens description links in a new tab)", async () => {
    const link = page.locator('.information-container a[href="#/webhooks/receiveAppointmentStatusChangedWebhook"]');
    expect(await link.count()).toBe(1);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    const section = opened.locator('#operations-webhooks-receiveAppointmentStatusChangedWebhook');
    await section.locator('.opblock-body').waitFor({ timeout: 15_000 });
    expect(await section.getAttribute('class')).toContain('is-open');
    await opened.close();
  });

  it("links each EventBridge event's JSON Schema from the description, served beside the page", async () => {
    const hrefs = await page.$$eval('.information-container a[href^="docs/assets/"]', (links) => links.map((link) => link.getAttribute('href')!));
    expect(hrefs).toContain('docs/assets/lab-results-reported.schema.json');
    for (const href of hrefs) {
      const res = await fetch(new URL(href, page.url()));
      expect(res.status, href).toBe(200);
      expect(((await res.json()) as { title: string }).title, href).toMatch(/ detail$/);
    }
  });

  it('offers the server it was loaded from for "Try it out"', async () => {
    const servers = await page.$$eval('.servers select option', (options) => options.map((option) => option.getAttribute('value')));
    expect(servers).toEqual([baseUrl]);
  });

  it('answers a file the page does not use with 404 and an {error} body', async () => {
    const response = await fetchChecked('/docs/assets/index.html');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.stringContaining('swagger-ui-bundle.js') });
  });

  it('is captured in test-output/docs-page.png (git-ignored) for a reviewer to look at', async () => {
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);
  });
});
