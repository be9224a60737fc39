/**
 * Configuration of every Lambda and of the local stack, read from the environment once, at cold start.
 * A missing or malformed variable fails here with a clear message, never later as `undefined`.
 * Handlers never read process.env themselves.
 */
import * as v from 'valibot';
import { AllowedOrigins } from './http/cors-policy';

const optionalUrl = v.optional(v.pipe(v.string(), v.url()));

const Environment = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(3)),
  /** Required by the functions that touch documents or events; the modules that use them check at load. */
  DOCUMENTS_BUCKET: v.optional(v.pipe(v.string(), v.minLength(3))),
  EVENT_BUS_NAME: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Set by Lambda and by the local stack; elsewhere (the keys CLI against AWS) the SDK's own chain decides. */
  AWS_REGION: v.optional(v.string()),
  /** Local stack only: endpoints of DynamoDB Local and the S3 emulator. */
  DYNAMODB_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  /** Local stack only: events are appended to this file (one JSON line each) instead of EventBridge. */
  LOCAL_EVENTS_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Local stack only: webhooks may go to receivers on localhost and loopback addresses (127.0.0.0/8, ::1), over http too. */
  WEBHOOKS_ALLOW_LOOPBACK: v.optional(v.picklist(['true', 'false'])),
  /** Local stack only: an ISO instant that fixes "now" for demos and black-box tests. */
  LAB_CLOCK: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  /** Browser apps that may call the API (docs/deploy.md "CORS"): exact origins, comma-separated; unset: no CORS. */
  CORS_ALLOW_ORIGINS: v.optional(AllowedOrigins),
  /** The key page cursors are signed with; required by the functions that serve paged lists (they check at load). */
  CURSOR_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  /** How long an access-log entry is kept (docs/privacy.md "Privacy"), in days: DynamoDB TTL deletes it after. */
  AUDIT_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a whole number of days from 1 to 99999'), v.transform(Number)), '730'),
  /** How long a critical result may wait for a clinician's acknowledgement before the critical results check counts it. */
  CRITICAL_ACK_MINUTES: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'must be a whole number of minutes from 1 to 9999'), v.transform(Number)),
    '60',
  ),
  /**
   * The lab's interface engine, for the lab order sender only (issue #51, docs/hl7.md "Orders"): where it listens
   * for MLLP, whether over TLS, and the parties of MSH-4 to MSH-6. The sender checks they are set when it loads.
   */
  LAB_MLLP_HOST: v.optional(v.pipe(v.string(), v.minLength(1))),
  LAB_MLLP_PORT: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a port number'), v.transform(Number))),
  LAB_MLLP_TLS: v.optional(v.picklist(['true', 'false'])),
  /** The lab's private CA (PEM) its engine's certificate must chain to; unset: Node's bundled Mozilla CAs. The message never quotes it. */
  LAB_MLLP_CA: v.optional(v.pipe(v.string(), v.regex(/^-----BEGIN CERTIFICATE-----/, 'must be a PEM certificate (-----BEGIN CERTIFICATE-----…)'))),
  LAB_SENDING_FACILITY: v.optional(v.pipe(v.string(), v.minLength(1))),
  LAB_RECEIVING_APPLICATION: v.optional(v.pipe(v.string(), v.minLength(1))),
  LAB_RECEIVING_FACILITY: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Every wait of the lab order's retry schedule multiplied by this (the local stack's tests compress it); default 1. */
  LAB_ORDER_RETRY_SCALE: v.optional(v.pipe(v.string(), v.decimal('must be a decimal number'), v.transform(Number), v.minValue(0.0001), v.maxValue(1)), '1'),
  /** How long a lab report that matched no order may wait to be matched or discarded before the check counts it (issue #51). */
  UNMATCHED_WAIT_MINUTES: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a whole number of minutes from 1 to 99999'), v.transform(Number)),
    '240',
  ),
  /**
   * Patient email (issue #52, docs/messages.md): SES's endpoint (the local stack's emulator only), the sender
   * address and the configuration set whose event destination reports bounces and complaints, the public base
   * URL of this API (the unsubscribe links point there), and how many hours before an appointment its reminder goes.
   */
  SES_ENDPOINT: optionalUrl,
  EMAIL_FROM_ADDRESS: v.optional(v.pipe(v.string(), v.email())),
  EMAIL_CONFIGURATION_SET: v.optional(v.pipe(v.string(), v.minLength(1))),
  EMAIL_LINK_ORIGIN: optionalUrl,
  /**
   * The public origin of the patient's appointment page (issue #53, docs/patient-page.md): its links are
   * `${origin}/p/{token}`. Unset: EMAIL_LINK_ORIGIN; the emails carry the page's link only when this is set.
   */
  PATIENT_PAGE_ORIGIN: optionalUrl,
  REMINDER_HOURS_BEFORE: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, 'must be a whole number of hours from 1 to 999'), v.transform(Number)), '24'),
});

function readConfig() {
  const parsed = v.safeParse(Environment, process.env);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'environment'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const env = parsed.output;
  return {
    tableName: env.TABLE_NAME,
    documentsBucket: env.DOCUMENTS_BUCKET,
    eventBusName: env.EVENT_BUS_NAME,
    region: env.AWS_REGION,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
    s3Endpoint: env.S3_ENDPOINT,
    localEventsFile: env.LOCAL_EVENTS_FILE,
    webhookUrlPolicy: { allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK === 'true' },
    fixedClock: env.LAB_CLOCK === undefined ? undefined : new Date(env.LAB_CLOCK),
    corsAllowOrigins: env.CORS_ALLOW_ORIGINS ?? [],
    cursorSecret: env.CURSOR_SECRET,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    criticalAckMinutes: env.CRITICAL_ACK_MINUTES,
    labInterface: {
      host: env.LAB_MLLP_HOST,
      port: env.LAB_MLLP_PORT,
      tls: env.LAB_MLLP_TLS === 'true',
      ca: env.LAB_MLLP_CA,
      sendingFacility: env.LAB_SENDING_FACILITY,
      receivingApplication: env.LAB_RECEIVING_APPLICATION,
      receivingFacility: env.LAB_RECEIVING_FACILITY,
      retryScale: env.LAB_ORDER_RETRY_SCALE,
    },
    unmatchedWaitMinutes: env.UNMATCHED_WAIT_MINUTES,
    email: {
      sesEndpoint: env.SES_ENDPOINT,
      fromAddress: env.EMAIL_FROM_ADDRESS,
      configurationSet: env.EMAIL_CONFIGURATION_SET,
      linkOrigin: env.EMAIL_LINK_ORIGIN,
      patientPageOrigin: env.PATIENT_PAGE_ORIGIN,
      reminderHoursBefore: env.REMINDER_HOURS_BEFORE,
    },
  } as const;
}

export const config = readConfig();

/** For modules that need an optional setting: fail when they load (cold start), not at the first request. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`Invalid configuration: ${name} is required`);
  return value;
}

/** The clock every rule takes as a parameter: real time, or LAB_CLOCK when the local stack fixes it. */
export function now(): Date {
  return config.fixedClock ? new Date(config.fixedClock) : new Date();
}
