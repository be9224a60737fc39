/**
 * `npm run smoke -- --base <url> --key <key> [--sandbox-key <lab_test_… key>] [--webhook-url <url>] [--profile-group <slug>]`:
 * the smoke test of a deployed stage (or of `npm start`), over HTTP only, one line per step:
 *
 *   health, docs page, contract   GET /health, GET /docs, GET /api/v1/openapi.json (no key)
 *   keyed read, no key            GET /api/v1/locations with the key (200), and without one (401)
 *   with a sandbox key (--sandbox-key, or --key itself when it is one): the whole flow of smoke-flow.ts in
 *   sandbox data, from a booking to the PDF report, with a webhook to --webhook-url when given, then its
 *   clean-up. With a live key only, the flow is skipped (one `skip` line): a live key writes nothing.
 *
 * Exit code 0 when every step passed (a skipped one included), 1 when one failed, 2 for bad arguments. It
 * prints neither a key nor a response body. The keys may come from SMOKE_KEY and SMOKE_SANDBOX_KEY instead
 * of the command line, which npm prints before it runs a script (`npm run --silent` does not).
 */
import { parseArgs } from 'node:util';
import { sandboxFlow } from './smoke-flow';
import { Api, list, object, Steps, StepFailed, text } from './smoke-steps';
import { asUsage, runCli, UsageError } from './usage';

const USAGE = `usage:
  npm run smoke -- --base <url> --key <key> [--sandbox-key <lab_test_… key>] [--webhook-url <url>] [--profile-group <slug>]
  npm run smoke -- --help

Checks the API at <url> (a deployed stage's ApiUrl output, or http://127.0.0.1:3000): health, the docs page,
the contract, a keyed read with <key> and a request without a key (401). With a sandbox key (--sandbox-key,
or --key itself when it starts lab_test_) also a whole flow in sandbox data: a made-up profile, a free slot
from a location's availability, a booking, a panel, the draw confirmed, simulated lab results, the results and
the PDF report; then it deletes what it can (docs/sandbox.md). One line per step; exit code 0 when every step
passed, 1 when one failed, 2 for bad arguments.
  --webhook-url <url>      subscribe it to the flow's events first (https in AWS), check a test send and the
                           delivery of the flow's LabResultsAvailable, delete the subscription afterwards
  --profile-group <slug>   the made-up profile's group, one of the key's (default: demo-clinic)
--key and --sandbox-key may be left out for SMOKE_KEY and SMOKE_SANDBOX_KEY: npm prints a script's command
line, arguments included, before it runs it (npm run --silent does not).`;

const SANDBOX_PREFIX = 'lab_test_';
const DELIVERY_WAIT_MS = 60_000;

interface Options {
  base: string;
  key: string;
  sandboxKey?: string;
  webhookUrl?: string;
  profileGroup: string;
}

function httpUrl(value: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} takes an http or https URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${flag} takes an http or https URL: ${value}`);
  if (url.username || url.password) throw new UsageError(`${flag} takes a URL without a user name or password`); // it is printed
  return url;
}

function options(argv: string[]): Options | 'help' {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        base: { type: 'string' },
        key: { type: 'string' },
        'sandbox-key': { type: 'string' },
        'webhook-url': { type: 'string' },
        'profile-group': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  if (!values.base) throw new UsageError('--base <url> is required');
  // The stage's URL as the ApiUrl output prints it (with its trailing slash), or with /api/v1 after it.
  const base = httpUrl(values.base, '--base')
    .href.replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
  const key = values.key ?? process.env.SMOKE_KEY;
  if (!key) throw new UsageError('--key <key> (or SMOKE_KEY) is required');
  const sandboxKey = values['sandbox-key'] ?? (process.env.SMOKE_SANDBOX_KEY || undefined);
  if (sandboxKey !== undefined && !sandboxKey.startsWith(SANDBOX_PREFIX))
    throw new UsageError(`--sandbox-key takes a sandbox key (${SANDBOX_PREFIX}…): the flow writes, and only into sandbox data`);
  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined) httpUrl(webhookUrl, '--webhook-url');
  if (webhookUrl !== undefined && !sandboxKey && !key.startsWith(SANDBOX_PREFIX))
    throw new UsageError(`--webhook-url needs a sandbox key (${SANDBOX_PREFIX}…): --sandbox-key, or --key itself`);
  const profileGroup = values['profile-group'] ?? 'demo-clinic';
  return { base, key, sandboxKey, webhookUrl, profileGroup };
}

async function main(argv: string[]): Promise<void> {
  const given = options(argv);
  if (given === 'help') return void console.log(USAGE);
  const started = performance.now();
  const steps = new Steps((line) => console.log(line));
  const api = new Api(given.base, given.key);

  await steps.run('health', async () => `${(await api.expect('GET', '/health', 200, { key: null })).status}`);
  await steps.run('docs page', async () => {
    const page = await api.expect('GET', '/docs', 200, { key: null });
    if (!page.contentType.startsWith('text/html')) throw new StepFailed(`GET /docs answered ${page.contentType || 'no content type'}, expected text/html`);
    return `${page.status} text/html`;
  });
  await steps.run('contract', async () => {
    const contract = object((await api.expect('GET', '/api/v1/openapi.json', 200, { key: null })).json(), 'the contract');
    const paths = object(contract.paths, "the contract's paths");
    const operations = Object.values(paths).reduce<number>((sum, path) => sum + Object.keys(object(path, 'a path')).length, 0);
    return `200, OpenAPI ${text(contract, 'openapi', 'the contract')}, ${operations} operations`;
  });
  await steps.run('keyed read', async () => {
    const locations = list((await api.expect('GET', '/api/v1/locations', 200)).json(), 'the locations');
    return `GET /api/v1/locations 200, ${locations.length} location(s)`;
  });
  await steps.run('no key', async () => `GET /api/v1/locations ${(await api.expect('GET', '/api/v1/locations', 401, { key: null })).status}`);

  const sandboxKey = given.sandboxKey ?? (given.key.startsWith(SANDBOX_PREFIX) ? given.key : undefined);
  if (sandboxKey) {
    await sandboxFlow(steps, new Api(given.base, sandboxKey), {
      profileGroup: given.profileGroup,
      webhookUrl: given.webhookUrl,
      deliveryWaitMs: DELIVERY_WAIT_MS,
    });
  } else {
    steps.skip('sandbox flow', `--key is not a sandbox key (${SANDBOX_PREFIX}…) and no --sandbox-key was given`);
  }

  const failed = steps.count('FAIL');
  const skipped = steps.count('skip') ? `, ${steps.count('skip')} skipped` : '';
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`smoke test ${failed ? 'FAILED' : 'passed'}: ${steps.count('ok')} ok, ${failed} failed${skipped}, against ${given.base} in ${seconds} s`);
  if (failed) process.exitCode = 1;
}

runCli('smoke', USAGE, () => main(process.argv.slice(2)));
