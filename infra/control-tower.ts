/**
 * AWS Control Tower's proactive controls, checked on every synth (infra/app.ts): an organisation that
 * enforces them blocks a deploy that breaks one, so we know which ones ours breaks before it tries. The
 * rules and the cfn-guard binary are those of @cdklabs/cdk-validator-cfnguard (237 rules, one per control);
 * this plugin runs them itself rather than through that package's CfnGuardValidator, for two reasons:
 *
 * - its result parser throws on prod's templates (0.0.62: a TypeError reading `to` on CT.CLOUDWATCH.PR.3's
 *   result for a log group whose key is a nested stack's parameter), which fails the synth;
 * - it runs all 237 rules over every template: 19 s here for prod's 11 templates, longer than the rest of
 *   the synth. A rule only ever fails a resource of the types its header says it reports on, so only the
 *   rules for types our templates hold run (26 of them): 2–3 s.
 *
 * It reports and never fails the synth: a control we knowingly do not meet is listed below with the reason
 * (docs/deploy.md shows this list, generated), a new one is a warning of the synth's summary with what to
 * do, and test/infra/deploy-guide.test.ts fails on either a new one or a listed one that is met now. The
 * whole result goes to `control-tower-report.json` in the cloud assembly.
 *
 * CDK hands a validation plugin the templates of the top-level stacks only: the nested stacks' templates
 * (routes, events, monitoring) are found through the construct tree and checked too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type IPolicyValidationContext, type IPolicyValidationPlugin, NestedStack, type PolicyValidationPluginReport, Stack } from 'aws-cdk-lib';
import { topLevelStack } from './top-level-stack';
import type { StackSettings } from './settings';

type Settings = Pick<StackSettings, 'alarms' | 'hipaaControls' | 'logRetention'>;

/** A control the stack does not meet, knowingly, and why. */
export interface ControlNotMet {
  /** The control's id, e.g. `CT.LAMBDA.PR.3`. */
  readonly control: string;
  /** Which stages fail it, by their settings (the stages that hold what the rule reads); unset: every stage. */
  readonly when?: { readonly stages: string; readonly settings: (settings: Settings) => boolean };
  readonly why: string;
}

const A_YEAR = 365;

export const CONTROLS_NOT_MET: readonly ControlNotMet[] = [
  {
    control: 'CT.LAMBDA.PR.3',
    why:
      'No VPC: the functions call AWS APIs only (DynamoDB, S3, EventBridge, CloudWatch, X-Ray), over TLS, each call authorized by ' +
      "the function's own role, and reach nothing inside a VPC (the webhook senders call clients' HTTPS endpoints, private " +
      'addresses refused). A VPC would need interface endpoints or a NAT gateway, billed by the hour in every stage, and adds no control.',
  },
  {
    control: 'CT.LAMBDA.PR.2',
    why:
      "Met in fact, unreadable to the rule: each API Gateway invoke permission is limited to its method on this API's stage by its " +
      "SourceArn, built with Fn::Join from the API's id, which the rule reads neither as a string nor as a reference. The EventBridge " +
      'rules\u2019 permissions, whose SourceArn is a plain reference, pass.',
  },
  {
    control: 'CT.CLOUDWATCH.PR.3',
    why:
      'Without hipaaControls (dev, staging: no patient data) the log groups use CloudWatch Logs\u2019 own encryption: a key of our own ' +
      'would cost $1/month and a key policy to run for test data. With hipaaControls (prod) every log group is under the stack\u2019s ' +
      'KMS key, but a nested stack receives the key as a parameter, which the rule cannot read: those log groups fail, the parent\u2019s pass.',
  },
  {
    control: 'CT.DYNAMODB.PR.2',
    why:
      "The table uses DynamoDB's AWS-owned key: encrypted at rest either way, and who may read it is decided per function by IAM. " +
      'A customer-managed key would add $1/month, a charge per request and a key policy to run, and a CloudTrail entry per decrypt.',
  },
  {
    control: 'CT.S3.PR.10',
    why:
      'SSE-S3: the lab uploads from its own account (labAccountId) and would need a grant on our key, as would every reader (the ' +
      "document route's presigned URLs, the ingest, AWS Backup); and S3 delivers server access logs only to an SSE-S3 bucket.",
  },
  {
    control: 'CT.S3.PR.2',
    why:
      'The documents bucket logs every request to the access-log bucket; the access-log bucket itself logs to no bucket: into itself ' +
      'it would log its own deliveries without end, and a third bucket would only move the question.',
  },
  {
    control: 'CT.S3.PR.4',
    why:
      'The access-log bucket sends no event notifications: nothing acts on a log file as it arrives. (The documents bucket sends its ' +
      'events to EventBridge, where the HL7 uploads start the ingest.)',
  },
  {
    control: 'CT.S3.PR.9',
    why:
      "No S3 Object Lock: a locked report file could not be deleted when a person's data is erased or its retention ends " +
      '(docs/privacy.md), nor an access log after its year. Versioning keeps a deleted or replaced file 30 days, and with ' +
      'hipaaControls AWS Backup keeps copies in a vault nobody can empty early.',
  },
  {
    control: 'CT.CLOUDWATCH.PR.2',
    when: { stages: 'logRetention under a year (dev, staging)', settings: ({ logRetention }) => logRetention < A_YEAR },
    why:
      'A stage of test data keeps its logs a month: a failure there is looked at the same week, and a year of logs of every test ' +
      'run would be stored and billed for nobody. A stage that holds patient data keeps them a year (prod).',
  },
  {
    control: 'CT.CLOUDWATCH.PR.1',
    when: { stages: 'alarms (staging, prod)', settings: ({ alarms }) => alarms },
    why:
      'The burn-rate alarms of the service levels (two windows per rate) have no action by design: each pair feeds a composite ' +
      'alarm, which notifies the topic only when both windows burn; an action on each window would page twice, and on short spikes.',
  },
  {
    control: 'CT.KMS.PR.3',
    when: { stages: 'hipaaControls (prod)', settings: ({ hipaaControls }) => hipaaControls },
    why:
      'Not yet: the statement the control asks for is a Deny in the policy of the key every log group of the stage is written with, and ' +
      'only prod has that key (staging runs without hipaaControls), so prod would be the first account to try it. Nothing creates grants ' +
      'on the key (CloudWatch Logs and the alarms use it without one), and IAM decides who of the account may.',
  },
];

/** The controls a stage with these settings is known not to meet. */
export const controlsNotMet = (settings: Settings): string[] =>
  CONTROLS_NOT_MET.filter(({ when }) => when === undefined || when.settings(settings)).map(({ control }) => control);

/** A rule of the package: its control, its cfn-guard rule name and the resource types it reports on. */
export interface ControlRule {
  readonly control: string;
  readonly title: string;
  readonly rule: string;
  readonly file: string;
  readonly reportsOn: readonly string[];
}

const PACKAGE_DIR = dirname(createRequire(import.meta.url).resolve('@cdklabs/cdk-validator-cfnguard/package.json'));
const RULES_DIR = join(PACKAGE_DIR, 'rules/control-tower/cfn-guard');

/** Every control the package holds, read from its rule files' headers. */
export function controlRules(): ControlRule[] {
  return readdirSync(RULES_DIR, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.guard'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(RULES_DIR, file), 'utf8');
      const header = (name: string) =>
        (new RegExp(`^# ${name}:\\n((?:#\\s{2,}\\S.*\\n)+)`, 'm').exec(text)?.[1] ?? '')
          .split('\n')
          .map((line) => line.replace(/^#\s*/, '').trim())
          .filter(Boolean);
      const title = /\[(CT\.[A-Z0-9-]+\.PR\.\d+)\]:\s*(.+)/.exec(text);
      // The rule cfn-guard reports: the one the file applies to a template (its header's name is not always it).
      const rule = /^rule (\w+) when is_cfn_template/m.exec(text) ?? /^rule (\w+)/m.exec(text);
      if (!title || !rule) throw new Error(`${file}: no [CT.….PR.n] message or no rule`);
      return { control: title[1]!, title: title[2]!.trim(), rule: rule[1]!, file: join(RULES_DIR, file), reportsOn: header('Reports on') };
    });
}

/** The cfn-guard binary the package ships for this machine, if any (Linux and macOS, x64 and arm64). */
function guardBinary(): string | undefined {
  const os = { linux: 'ubuntu', darwin: 'macos' }[platform() as string];
  const cpu = { x64: 'x86_64', arm64: 'aarch64' }[arch() as string];
  const file = os && cpu ? join(PACKAGE_DIR, 'bin', os, cpu, 'cfn-guard') : undefined;
  return file && existsSync(file) ? file : undefined;
}

/** A template and the stack it is, as the summary names it (`LabApi-prod/ProfileRoutes` for a nested one). */
export interface StackTemplate {
  readonly stack: string;
  readonly file: string;
}

/** A control not met: by which resources of which stacks. */
export interface ControlFinding {
  readonly control: string;
  readonly title: string;
  readonly resources: readonly { readonly stack: string; readonly logicalId: string }[];
}

export interface ControlsResult {
  /** Every control the package holds, and how many applied (their resource types are in the templates). */
  readonly controls: number;
  readonly applicable: number;
  readonly guardVersion: string;
  readonly seconds: number;
  readonly notMet: readonly ControlFinding[];
}

/** Every path a cfn-guard result names, as `/Resources/<logical id>/…`: the resources it is about. */
function resourcesNamed(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) resourcesNamed(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const id = key === 'path' && typeof item === 'string' ? /^\/Resources\/([^/]+)/.exec(item)?.[1] : undefined;
      if (id) into.add(id);
      else resourcesNamed(item, into);
    }
  }
  return into;
}

interface GuardDocument {
  name: string;
  not_compliant?: Record<string, unknown> | unknown[];
}

/** Runs the controls that apply to the templates' resource types, all at once; none when there is no binary here. */
export function checkControls(templates: readonly StackTemplate[]): ControlsResult | undefined {
  const guard = guardBinary();
  if (!guard) return undefined;
  const started = Date.now();
  const types = new Set(
    templates.flatMap(({ file }) =>
      Object.values((JSON.parse(readFileSync(file, 'utf8')) as { Resources?: Record<string, { Type: string }> }).Resources ?? {}).map((r) => r.Type),
    ),
  );
  const all = controlRules();
  // A rule reports on resources of its header's types only: the others could fail nothing here.
  const applicable = all.filter(({ reportsOn }) => reportsOn.length === 0 || reportsOn.some((type) => types.has(type)));
  const args = ['validate', ...applicable.flatMap(({ file }) => ['--rules', file]), ...templates.flatMap(({ file }) => ['--data', file])];
  let output: string;
  try {
    output = execFileSync(guard, [...args, '--output-format', 'json', '--show-summary', 'none', '--structured'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (error) {
    // Exit code 19: some rule was not met; the results are on stdout as always.
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    if (failed.status !== 19 || failed.stdout === undefined) throw new Error(`cfn-guard failed (exit ${failed.status}): ${failed.stderr ?? String(error)}`);
    output = failed.stdout;
  }
  const byRule = new Map(applicable.map((rule) => [rule.rule, rule]));
  const stackOf = new Map(templates.map(({ stack, file }) => [file, stack]));
  const found = new Map<string, ControlFinding & { resources: { stack: string; logicalId: string }[] }>();
  for (const document of JSON.parse(output) as GuardDocument[]) {
    const results = Array.isArray(document.not_compliant) ? document.not_compliant : Object.values(document.not_compliant ?? {});
    for (const result of results) {
      const name = String((result as { Rule?: { name?: string } }).Rule?.name ?? (result as { name?: string }).name);
      const rule = byRule.get(name);
      if (!rule) throw new Error(`cfn-guard named a rule no file of the package holds: ${name}`);
      const finding = found.get(rule.control) ?? { control: rule.control, title: rule.title, resources: [] };
      found.set(rule.control, finding);
      for (const logicalId of resourcesNamed(result, new Set())) finding.resources.push({ stack: stackOf.get(document.name) ?? document.name, logicalId });
    }
  }
  const guardVersion = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'guard-version.json'), 'utf8')) as { version: string }).version;
  return {
    controls: all.length,
    applicable: applicable.length,
    guardVersion,
    seconds: (Date.now() - started) / 1000,
    notMet: [...found.values()].sort((a, b) => a.control.localeCompare(b.control)),
  };
}

/** The templates of `stack` and of every stack nested in it, in the assembly `dir` its own template is in. */
export function templatesOf(stack: Stack, dir: string): StackTemplate[] {
  const nested = stack.node
    .findAll()
    .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct) && topLevelStack(construct) === stack)
    .map((child) => ({ stack: `${stack.stackName}/${child.node.id}`, file: join(dir, child.templateFile) }));
  return [{ stack: stack.stackName, file: join(dir, stack.templateFile) }, ...nested];
}

/**
 * The validation plugin infra/app.ts adds: it checks the controls on the synth's templates and keeps the
 * result for the summary (summaryLines) and the report file (writeReport); it never fails the synth.
 */
export class ControlTowerControls implements IPolicyValidationPlugin {
  readonly name = 'control-tower-proactive-controls';
  result?: ControlsResult;
  /** Why the controls did not run (a machine cfn-guard has no binary for). */
  skipped?: string;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const stacks = context.appConstruct.node.findAll().filter((construct): construct is Stack => Stack.isStack(construct) && !construct.nestedStackParent);
    const templates = stacks.flatMap((stack) => {
      const parent = context.templatePaths.find((file) => basename(file) === stack.templateFile);
      return parent ? templatesOf(stack, dirname(parent)) : [];
    });
    try {
      this.result = checkControls(templates);
      if (!this.result) this.skipped = `no cfn-guard binary in @cdklabs/cdk-validator-cfnguard for ${platform()} ${arch()}`;
    } catch (error) {
      this.skipped = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
    }
    // Reported by the synth's summary, never as a failure: a control a stage does not meet is decided in code, not here.
    return { success: true, violations: [] };
  }

  /** Writes the whole result beside the templates; returns its path. */
  writeReport(assemblyDir: string): string | undefined {
    if (!this.result) return undefined;
    const file = join(assemblyDir, 'control-tower-report.json');
    writeFileSync(file, `${JSON.stringify(this.result, null, 2)}\n`);
    return file;
  }

  /** The summary's lines: the count, each control not met that is not listed as known, each listed one met now. */
  summaryLines(expected: readonly string[], report: string | undefined): string[] {
    if (!this.result) {
      return [
        `  Control Tower proactive controls: not checked (${this.skipped ?? 'no templates'})`,
        '    what to do: run the synth on Linux or macOS (x64, arm64) to check them; a failure above names its cause',
      ];
    }
    const { controls, applicable, notMet, seconds } = this.result;
    const unexpected = notMet.filter(({ control }) => !expected.includes(control));
    const metNow = expected.filter((control) => !notMet.some((finding) => finding.control === control));
    const lines = [
      `  Control Tower proactive controls (cfn-guard, ${applicable} of ${controls} rules apply, ${seconds.toFixed(1)} s): ` +
        `${notMet.length} not met, ${notMet.length - unexpected.length} of them as docs/deploy.md lists${report ? `; report: ${report}` : ''}`,
    ];
    for (const { control, title, resources } of unexpected) {
      const named = resources.slice(0, 3).map(({ stack, logicalId }) => `${stack} ${logicalId}`);
      lines.push(
        `    NEW: ${control} (${title}) not met by ${named.join(', ')}${resources.length > 3 ? ` and ${resources.length - 3} more` : ''}`,
        '      what to do: meet it, or list it with the reason in infra/control-tower.ts (CONTROLS_NOT_MET), then npm run docs:guides',
      );
    }
    for (const control of metNow) {
      lines.push(`    ${control} is met now`, '      what to do: remove it from CONTROLS_NOT_MET in infra/control-tower.ts, then npm run docs:guides');
    }
    return lines;
  }
}
