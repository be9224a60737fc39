/**
 * The stage files (infra/stages/) and `-c` overrides, as readSettings merges and checks them: a committed
 * value is the default, the command line wins for one run, and a stage missing what it requires, or holding
 * a malformed value, fails the synth with the value's name and where it came from.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function';
import { readSettings, senderDomain, STAGE_FILES, STAGES, type StageFile, type StageName, settingsWarnings, stageOf } from '../../infra/settings';
import { labApiStack, testApp } from './synth';

const withoutAlarmEmail: StageFile = (({ alarmEmail: _, ...rest }) => rest)(STAGE_FILES.prod);

describe('stage settings', () => {
  it('are the dev stage file when no context is given', () => {
    const app = testApp();
    expect(stageOf(app)).toBe('dev');
    expect(readSettings(app, 'dev')).toEqual({ ...STAGE_FILES.dev, labAccountId: undefined, alarmEmail: undefined });
  });

  it('refuse a stage named account, whose stack would take the name of the account stack', () => {
    expect(() => readSettings(testApp(), 'account' as StageName, STAGE_FILES.dev)).toThrow('the stage name "account" is taken by LabApi-account');
  });

  it('are the prod stage file for prod, its alarm address and termination protection included', () => {
    expect(readSettings(testApp(), 'prod')).toMatchObject({ alarmEmail: STAGE_FILES.prod.alarmEmail, terminationProtection: true });
  });

  it('take the strings of `-c key=value` over the stage file', () => {
    const settings = readSettings(
      testApp({
        apiThrottleRate: '20',
        apiThrottleBurst: '40',
        apiGatewayCloudWatchRole: 'false',
        labAccountId: '123456789012',
        auditRetentionDays: '365',
        criticalAckMinutes: '30',
      }),
      'prod',
    );
    expect(settings).toMatchObject({
      throttle: { rateLimit: 20, burstLimit: 40 },
      apiGatewayCloudWatchRole: false,
      labAccountId: '123456789012',
      auditRetentionDays: 365,
      criticalAckMinutes: 30,
      documentRetentionYears: STAGE_FILES.prod.documentRetentionYears,
    });
  });

  it('refuse a `-c` value that cannot mean what its key says, naming the key', () => {
    expect(() => stageOf(testApp({ stage: 'qa' }))).toThrow(
      /Unknown stage "qa": use -c stage=dev, -c stage=staging, -c stage=prod; a new stage is a file in infra\/stages\//,
    );
    expect(() => readSettings(testApp({ apiThrottleRate: 'fast' }), 'dev')).toThrow(/apiThrottleRate must be a positive number/);
    expect(() => readSettings(testApp({ apiThrottleBurst: '0' }), 'dev')).toThrow(/apiThrottleBurst/);
    expect(() => readSettings(testApp({ apiGatewayCloudWatchRole: 'yes' }), 'dev')).toThrow(/apiGatewayCloudWatchRole/);
    expect(() => readSettings(testApp({ labAccountId: '1234' }), 'dev')).toThrow(/labAccountId must be a 12-digit/);
    expect(() => readSettings(testApp({ alarmEmail: 'oncall' }), 'prod')).toThrow(/alarmEmail must be an email/);
    expect(() => readSettings(testApp({ documentRetentionYears: '7.5' }), 'dev')).toThrow(/documentRetentionYears must be a whole number of years/);
    expect(() => readSettings(testApp({ auditRetentionDays: '0.5' }), 'dev')).toThrow(/auditRetentionDays must be a whole number of days/);
    expect(() => readSettings(testApp({ terminationProtection: 'maybe' }), 'prod')).toThrow(/terminationProtection must be true or false/);
    expect(() => readSettings(testApp({ criticalAckMinutes: '0' }), 'prod')).toThrow(/criticalAckMinutes must be a positive number/);
  });

  it('are the staging stage file for staging: alarms to its own address, data deleted with the stack, a month of logs, no HIPAA controls', () => {
    expect(stageOf(testApp({ stage: 'staging' }))).toBe('staging');
    expect(readSettings(testApp(), 'staging')).toMatchObject({
      alarms: true,
      alarmEmail: STAGE_FILES.staging.alarmEmail,
      retainData: false,
      logRetention: RetentionDays.ONE_MONTH,
      hipaaControls: false,
      terminationProtection: false,
      keyLimits: STAGE_FILES.prod.keyLimits,
    });
  });

  it('hold every stage file of infra/stages/, each under its file name and exported by that name', async () => {
    const files = readdirSync(join(REPO_ROOT, 'infra/stages'))
      .filter((file) => file !== 'stage-file.ts')
      .map((file) => file.replace(/\.ts$/, ''));
    expect([...STAGES].sort()).toEqual(files.sort());
    for (const stage of STAGES) {
      const module = (await import(`../../infra/stages/${stage}.ts`)) as Record<string, unknown>;
      expect(module[stage], stage).toBe(STAGE_FILES[stage]);
    }
  });

  it('refuse a stage file with hipaaControls but without retainData or alarms: patient data is neither deleted with a stack nor unwatched', () => {
    expect(() => readSettings(testApp(), 'staging', { ...STAGE_FILES.prod, retainData: false })).toThrow(
      'infra/stages/staging.ts: retainData must be true: hipaaControls says the stage holds patient data',
    );
    expect(() => readSettings(testApp(), 'dev', { ...STAGE_FILES.prod, alarms: false })).toThrow(
      'infra/stages/dev.ts: alarms must be true: hipaaControls says the stage holds patient data',
    );
  });

  it('refuse a log retention CloudWatch Logs cannot keep, and keeping logs forever, naming the file', () => {
    expect(() => readSettings(testApp(), 'dev', { ...STAGE_FILES.dev, logRetention: 42 as RetentionDays })).toThrow(
      /^infra\/stages\/dev\.ts: logRetention must be a RetentionDays period/,
    );
    expect(() => readSettings(testApp(), 'dev', { ...STAGE_FILES.dev, logRetention: RetentionDays.INFINITE })).toThrow(/never INFINITE/);
  });

  it('require an alarm address of any stage with alarms, whatever its name, and of none without', () => {
    expect(() => readSettings(testApp({ alarmEmail: '' }), 'staging')).toThrow('The staging stage requires alarmEmail: set it in infra/stages/staging.ts');
    expect(readSettings(testApp(), 'staging', { ...withoutAlarmEmail, hipaaControls: false, alarms: false }).alarmEmail).toBeUndefined();
  });

  it('refuse a prod stage file that turns the HIPAA controls off: prod holds patient data', () => {
    expect(() => readSettings(testApp(), 'prod', { ...STAGE_FILES.prod, hipaaControls: false })).toThrow(
      'infra/stages/prod.ts: hipaaControls must be true: the prod stage holds patient data',
    );
  });

  it('take hipaaControls from the stage file only, never from `-c`', () => {
    expect(readSettings(testApp({ hipaaControls: 'false' }), 'prod').hipaaControls).toBe(true);
    expect(readSettings(testApp({ hipaaControls: 'true' }), 'dev').hipaaControls).toBe(false);
  });

  it('refuse a stage file whose default key limits are not whole numbers in range, naming the field', () => {
    const file = { ...STAGE_FILES.dev, keyLimits: { rateLimit: 0, burstLimit: 10, dailyQuota: null } };
    expect(() => readSettings(testApp(), 'dev', file)).toThrow('infra/stages/dev.ts: keyLimits.rateLimit must be at least 1');
  });

  it('fail a prod synth whose stage file lacks the alarm address, naming the value and the file', () => {
    expect(() => readSettings(testApp(), 'prod', withoutAlarmEmail)).toThrow('The prod stage requires alarmEmail: set it in infra/stages/prod.ts');
  });

  it('fail a prod synth when `-c alarmEmail=` unsets the address', () => {
    expect(() => labApiStack(testApp({ alarmEmail: '' }), 'prod')).toThrow(/The prod stage requires alarmEmail/);
  });

  it('let a dev stage go without an alarm address', () => {
    expect(readSettings(testApp({ alarmEmail: '' }), 'dev').alarmEmail).toBeUndefined();
  });

  it('refuse a malformed value in a stage file, naming the file and the value', () => {
    const file: StageFile = { ...STAGE_FILES.prod, throttle: { rateLimit: 100, burstLimit: 2.5 } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow('infra/stages/prod.ts: throttle.burstLimit must be a whole number of requests');
  });

  it('refuse origins in a stage file that are not exact origins, naming the file', () => {
    const file: StageFile = { ...STAGE_FILES.dev, corsAllowOrigins: ['https://*.example'] };
    expect(() => readSettings(testApp(), 'dev', file)).toThrow(/^infra\/stages\/dev\.ts corsAllowOrigins: ".*" is not an origin/);
  });

  /** Prod's file with a real patient email sender, so that only the alarm address's warning is left to see. */
  const withRealSender = (file: StageFile): StageFile => ({ ...file, email: { fromAddress: 'no-reply@lab.example.de' } });

  it("warn while prod's alarm address is still the example one, and not once it names a real domain", () => {
    expect(settingsWarnings('prod', readSettings(testApp(), 'prod', withRealSender(STAGE_FILES.prod)))).toEqual([
      expect.stringContaining('alarmEmail is the example address'),
    ]);
    expect(settingsWarnings('prod', readSettings(testApp({ alarmEmail: 'oncall@lab.example.de' }), 'prod', withRealSender(STAGE_FILES.prod)))).toEqual([]);
  });

  it('warn about the example alarm address of any stage with alarms (staging), and of none without', () => {
    expect(settingsWarnings('staging', readSettings(testApp(), 'staging', withRealSender(STAGE_FILES.staging)))).toEqual([
      expect.stringContaining('alarmEmail is the example address of infra/stages/staging.ts'),
    ]);
    expect(settingsWarnings('dev', readSettings(testApp({ alarmEmail: 'team@example.org' }), 'dev'))).toEqual([]);
  });

  it("warn while a watched stage's patient email sender is the example address (SES never verifies it), and not once it names a real domain", () => {
    const realAlarms = { alarmEmail: 'oncall@lab.example.de' };
    expect(settingsWarnings('prod', readSettings(testApp(realAlarms), 'prod'))).toEqual([
      expect.stringContaining('email.fromAddress is the example address of infra/stages/prod.ts'),
    ]);
    expect(settingsWarnings('prod', readSettings(testApp(realAlarms), 'prod', withRealSender(STAGE_FILES.prod)))).toEqual([]);
    expect(settingsWarnings('dev', readSettings(testApp(), 'dev'))).toEqual([]);
  });
});

describe('the patient email settings', () => {
  it("take the sender's own domain for the SES identity unless the file names one", () => {
    expect(senderDomain(STAGE_FILES.dev.email)).toBe('dev.lab.example.org');
    expect(senderDomain({ fromAddress: 'termine@mail.praxis.example.de', domain: 'praxis.example.de' })).toBe('praxis.example.de');
  });

  it('refuse a sender address that is no email address, naming the file and the field', () => {
    const file: StageFile = { ...STAGE_FILES.prod, email: { fromAddress: 'no-reply' } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow('infra/stages/prod.ts: email.fromAddress must be an email address');
  });

  it('refuse a sender address outside the domain SES verifies for it', () => {
    const file: StageFile = { ...STAGE_FILES.prod, email: { fromAddress: 'no-reply@other.example.org', domain: 'lab.example.org' } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow(
      'infra/stages/prod.ts: email.fromAddress must be an address in email.domain or a subdomain of it',
    );
    const subdomain: StageFile = { ...STAGE_FILES.prod, email: { fromAddress: 'no-reply@mail.lab.example.org', domain: 'lab.example.org' } };
    expect(readSettings(testApp(), 'prod', subdomain).email).toEqual(subdomain.email);
  });

  it('refuse a domain that is no DNS domain', () => {
    const file: StageFile = { ...STAGE_FILES.prod, email: { fromAddress: 'a@lab.example.org', domain: 'https://lab.example.org' } };
    expect(() => readSettings(testApp(), 'prod', file)).toThrow('infra/stages/prod.ts: email.domain must be a DNS domain');
  });

  it('take reminderHoursBefore from the file (24 in every stage file), or from `-c`, and refuse anything but whole hours from 1 to 999', () => {
    for (const stage of STAGES) expect(readSettings(testApp(), stage).reminderHoursBefore, stage).toBe(24);
    expect(readSettings(testApp({ reminderHoursBefore: '48' }), 'prod').reminderHoursBefore).toBe(48);
    expect(() => readSettings(testApp(), 'dev', { ...STAGE_FILES.dev, reminderHoursBefore: 0 })).toThrow(
      'infra/stages/dev.ts: reminderHoursBefore must be at least 1',
    );
    expect(() => readSettings(testApp(), 'dev', { ...STAGE_FILES.dev, reminderHoursBefore: 1.5 })).toThrow(
      'infra/stages/dev.ts: reminderHoursBefore must be a whole number of hours',
    );
    expect(() => readSettings(testApp({ reminderHoursBefore: '1000' }), 'dev')).toThrow(/reminderHoursBefore must be a whole number of hours from 1 to 999/);
  });
});

describe("the patient page's origin", () => {
  it('is unset in every stage file: the emails carry no page link until a stage names its origin', () => {
    for (const stage of STAGES) expect(readSettings(testApp(), stage), stage).not.toHaveProperty('patientPageOrigin');
  });

  it("takes the stage file's https origin, and never a `-c` value", () => {
    const file: StageFile = { ...STAGE_FILES.prod, patientPageOrigin: 'https://patients.lab.example.org' };
    expect(readSettings(testApp(), 'prod', file).patientPageOrigin).toBe('https://patients.lab.example.org');
    expect(readSettings(testApp(), 'prod', { ...file, patientPageOrigin: 'https://patients.lab.example.org:8443' }).patientPageOrigin).toBe(
      'https://patients.lab.example.org:8443',
    );
    expect(readSettings(testApp({ patientPageOrigin: 'https://elsewhere.example.org' }), 'prod')).not.toHaveProperty('patientPageOrigin');
  });

  it('refuses anything but an https origin as a browser names it, naming the file and the field', () => {
    for (const origin of [
      'http://patients.lab.example.org',
      'https://patients.lab.example.org/',
      'https://patients.lab.example.org/p',
      'https://patients.lab.example.org?x=1',
      'https://user@patients.lab.example.org',
      'https://Patients.lab.example.org',
      'https://patients.lab.example.org:443',
      'patients.lab.example.org',
      '',
    ]) {
      expect(() => readSettings(testApp(), 'prod', { ...STAGE_FILES.prod, patientPageOrigin: origin }), origin).toThrow(
        'infra/stages/prod.ts: patientPageOrigin must be an https origin as a browser names it, e.g. https://patients.lab.example.org: no path',
      );
    }
  });
});

describe('termination protection', () => {
  it('is on for the prod stack', () => {
    expect(labApiStack(testApp(), 'prod').terminationProtection).toBe(true);
  });

  it('is off for the dev stack', () => {
    expect(labApiStack(testApp(), 'dev').terminationProtection).toBe(false);
  });

  it('is off for the staging stack', () => {
    expect(labApiStack(testApp(), 'staging').terminationProtection).toBe(false);
  });
});
