/**
 * The local stack's environment contract (docs/getting-started.md "Environment"). `npm start`, the keys CLI and the
 * tests derive every setting from the same variables, so they all reach the same running stack.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface LocalSettings {
  port: number;
  dynamodbPort: number;
  s3Port: number;
  dataDir: string;
  devApiKey: string | undefined;
  /** Browser apps that may call the local API (docs/deploy.md "CORS"); unset: no CORS. */
  corsAllowOrigins?: string;
  /** Where the simulated lab listens for HL7 v2 over MLLP (issue #51), and the local lab order sender sends. */
  labMllpPort: number;
  /** Your own interface engine (a Mirth on this machine): the sender sends to LAB_MLLP_HOST:LAB_MLLP_PORT and no simulated lab starts. */
  labMllpHost?: string;
  /** Where the SES emulator listens (issue #52): every email the stack sends lands there, on its page. 0: a free port. */
  sesPort: number;
  /** Whole hours before an appointment its reminder email goes (REMINDER_HOURS_BEFORE, 1–999; the stage files' 24 by default). */
  reminderHoursBefore: number;
}

function portFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return port;
}

function hoursFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const hours = Number(value);
  if (!/^\d+$/.test(value) || hours < 1 || hours > 999) throw new Error(`${name} must be a whole number of hours from 1 to 999, got "${value}"`);
  return hours;
}

/** The local sender address: `.localhost` is reserved (RFC 6761), so nothing the stack sends could reach anyone. */
export const LOCAL_FROM_ADDRESS = 'no-reply@lab.localhost';

export function localSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  return {
    port: portFrom(env.PORT, 3000, 'PORT'),
    dynamodbPort: portFrom(env.DYNAMODB_PORT, 8000, 'DYNAMODB_PORT'),
    s3Port: portFrom(env.S3_PORT, 4569, 'S3_PORT'),
    dataDir: resolve(env.LAB_DATA_DIR || '.local-data'),
    devApiKey: env.DEV_API_KEY || undefined,
    corsAllowOrigins: env.CORS_ALLOW_ORIGINS || undefined,
    labMllpPort: portFrom(env.LAB_MLLP_PORT, 2575, 'LAB_MLLP_PORT'),
    labMllpHost: env.LAB_MLLP_HOST || undefined,
    sesPort: portFrom(env.SES_PORT, 8005, 'SES_PORT'),
    reminderHoursBefore: hoursFrom(env.REMINDER_HOURS_BEFORE, 24, 'REMINDER_HOURS_BEFORE'),
  };
}

export const LOCAL_TABLE = 'lab-local';
export const LOCAL_BUCKET = 'lab-documents-local';
export const LOCAL_BUS = 'lab-local';

/**
 * The key the local stack signs page cursors with: generated at the first start and kept in the data dir
 * (readable by its owner only), so cursors survive a restart; deleting the folder makes a new one.
 */
export function localCursorSecret(dataDir: string): string {
  const file = join(dataDir, 'cursor-secret');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(file)) {
    // Written aside, then linked into place: of two processes starting at once, one links and both read
    // the same complete value (a link never shows a half-written file).
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** The variables shared/config.ts reads, pointed at the local emulators. */
export function localFunctionEnvironment(settings: LocalSettings): Record<string, string> {
  return {
    TABLE_NAME: LOCAL_TABLE,
    DOCUMENTS_BUCKET: LOCAL_BUCKET,
    EVENT_BUS_NAME: LOCAL_BUS,
    AWS_REGION: 'eu-central-1',
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${settings.dynamodbPort}`,
    S3_ENDPOINT: `http://127.0.0.1:${settings.s3Port}`,
    POWERTOOLS_SERVICE_NAME: 'lab-api',
    // Metrics are CloudWatch's (shared/metrics.ts): here they would only be a JSON line per request.
    POWERTOOLS_METRICS_DISABLED: 'true',
    // The local event bus: each event one JSON line here (docs/events-and-webhooks.md "Events").
    LOCAL_EVENTS_FILE: join(settings.dataDir, 'events.ndjson'),
    // A developer's webhook receiver runs on this machine (docs/events-and-webhooks.md "Webhooks").
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    CURSOR_SECRET: localCursorSecret(settings.dataDir),
    // The handlers and the local server's own answers read the same list (docs/deploy.md "CORS").
    ...(settings.corsAllowOrigins && { CORS_ALLOW_ORIGINS: settings.corsAllowOrigins }),
    // The lab order sender's lab (docs/hl7.md "Orders"): the simulated one, unless LAB_MLLP_HOST names another.
    LAB_MLLP_HOST: settings.labMllpHost ?? '127.0.0.1',
    LAB_MLLP_PORT: String(settings.labMllpPort),
    LAB_SENDING_FACILITY: process.env.LAB_SENDING_FACILITY || 'LABAPI-LOCAL',
    LAB_RECEIVING_APPLICATION: process.env.LAB_RECEIVING_APPLICATION || 'SIMULATED-LAB',
    LAB_RECEIVING_FACILITY: process.env.LAB_RECEIVING_FACILITY || 'LOCAL-LAB',
    // Patient email (docs/messages.md): to the SES emulator (with SES_PORT=0, `npm start` sets the port it got), from
    // a sender no one can receive mail at, its unsubscribe links to this API; no configuration set (its event
    // destination, which reports bounces and complaints, exists in AWS only).
    SES_ENDPOINT: `http://127.0.0.1:${settings.sesPort}`,
    EMAIL_FROM_ADDRESS: process.env.EMAIL_FROM_ADDRESS || LOCAL_FROM_ADDRESS,
    EMAIL_LINK_ORIGIN: `http://127.0.0.1:${settings.port}`,
    // The patient's page (issue #53) is served by this very server: the emails carry its link.
    PATIENT_PAGE_ORIGIN: `http://127.0.0.1:${settings.port}`,
    REMINDER_HOURS_BEFORE: String(settings.reminderHoursBefore),
  };
}
