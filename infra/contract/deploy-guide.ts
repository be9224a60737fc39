/**
 * docs/deploy.md's lists of what a synth makes, generated between the same markers as the other guides'
 * (infra/contract/guides.ts), so that the deploy guide cannot drift from the app:
 *
 *   stack sizes     every stack of every stage (infra/stages/) with its resources, the nested ones and the
 *                   account stack included, counted on one synth of all the stages (bundling skipped: it
 *                   changes no resource; with CDK's metadata resource, as `cdk synth` adds it)
 *   control tower   the Control Tower controls the stages knowingly do not meet, and why
 *                   (CONTROLS_NOT_MET in infra/control-tower.ts)
 *
 *   npm run docs:guides     writes them too (after guides.ts); test/infra/deploy-guide.test.ts fails while
 *                           docs/deploy.md holds other text, or a stage does not meet a control not listed
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { ACCOUNT_STACK_ID } from '../account-stack';
import { CONTROLS_NOT_MET, controlRules, type StackTemplate, templatesOf } from '../control-tower';
import { LabApiStack } from '../lab-api-stack';
import { STAGES, type StageName } from '../settings';
import { type GuideRegion, readGuide, withGeneratedRegions } from './guides';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEPLOY_GUIDE = 'docs/deploy.md';

/** One synth of every stage, as one account holds them: each stage's stack and its templates, and the account stack's. */
export interface StagesSynth {
  readonly dir: string;
  readonly stages: readonly { readonly stage: StageName; readonly stack: LabApiStack; readonly templates: readonly StackTemplate[] }[];
  readonly account: StackTemplate;
}

/** Synthesizes every stage into `outdir` with cdk.json's context, bundling skipped. */
export function synthesizeStages(outdir: string): StagesSynth {
  const { context } = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  // `cdk synth` adds CDK's metadata resource to every stack; the counts are those of `cdk synth`.
  const app = new App({ outdir, autoSynth: false, context: { ...context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:version-reporting': true } });
  const stacks = STAGES.map((stage) => ({ stage, stack: new LabApiStack(app, `LabApi-${stage}`, { stage }) }));
  const assembly = app.synth();
  const account = stacks.find(({ stack }) => stack.accountStack)?.stack.accountStack;
  if (!account) throw new Error(`no stage file says apiGatewayCloudWatchRole: the ${ACCOUNT_STACK_ID} stack is missing`);
  return {
    dir: assembly.directory,
    stages: stacks.map(({ stage, stack }) => ({ stage, stack, templates: templatesOf(stack, assembly.directory) })),
    account: templatesOf(account, assembly.directory)[0]!,
  };
}

interface TemplateFile {
  Description?: string;
  Resources: Record<string, unknown>;
}
const readTemplate = ({ file }: StackTemplate) => JSON.parse(readFileSync(file, 'utf8')) as TemplateFile;

/** What the parent and the account stack hold; the nested ones say it in their own template's description. */
const PARENT =
  'the API: every resource and method, one deployment and its stage; usage plan, table, buckets, bus, secret; with hipaaControls the KMS key and AWS Backup';
const ACCOUNT = "API Gateway's logging role, once per account and region";

/**
 * A stack's row in the stack-size table: the stage's own stack as `LabApi-<stage>`, one nested in it by its name
 * alone, any other (the account's) by its full name.
 */
export function stackRowName(stack: string, stage: string): string {
  if (stack === `LabApi-${stage}`) return 'LabApi-<stage>';
  return stack.startsWith(`LabApi-${stage}/`) ? stack.slice(`LabApi-${stage}/`.length) : stack;
}

/** docs/deploy.md: one row per stack (its name without the stage's), one column per stage. */
export function stackSizesTable(synth: StagesSynth): string {
  const rows = new Map<string, { what: string; counts: Map<StageName, number> }>();
  const row = (name: string, what: string) => rows.get(name) ?? rows.set(name, { what, counts: new Map() }).get(name)!;
  const describe = (template: TemplateFile) => (template.Description ?? '').replace(/^Lab API:? /, '');
  for (const { stage, templates } of synth.stages) {
    for (const template of templates) {
      const read = readTemplate(template);
      const name = stackRowName(template.stack, stage);
      row(name, name === 'LabApi-<stage>' ? PARENT : describe(read)).counts.set(stage, Object.keys(read.Resources).length);
    }
  }
  const account = readTemplate(synth.account);
  const stages = synth.stages.map(({ stage }) => stage);
  const lines = [...rows].map(([name, { what, counts }]) => `| \`${name}\` (${what}) | ${stages.map((stage) => counts.get(stage) ?? '—').join(' | ')} |`);
  lines.push(`| \`${ACCOUNT_STACK_ID}\` (${ACCOUNT}) | ${stages.map(() => Object.keys(account.Resources).length).join(' | ')} |`);
  return [`| stack | ${stages.join(' | ')} |`, `|---|${stages.map(() => '---|').join('')}`, ...lines].join('\n');
}

/** docs/deploy.md: each control not met, what it requires, where, and why. */
export function controlsTable(): string {
  const titles = new Map(controlRules().map(({ control, title }) => [control, title]));
  const rows = CONTROLS_NOT_MET.map(({ control, when, why }) => {
    const title = titles.get(control);
    if (!title) throw new Error(`${control} is no control of @cdklabs/cdk-validator-cfnguard`);
    return `| ${control} | ${title} | ${when?.stages ?? 'every stage'} | ${why.replace(/\|/g, '\\|')} |`;
  });
  return ['| control | it requires | not met in stages with | why |', '|---|---|---|---|', ...rows].join('\n');
}

/** The regions, each from `synth` (the stack sizes) or from the code. */
export const deployGuideRegions = (synth: StagesSynth): GuideRegion[] => [
  { file: DEPLOY_GUIDE, name: 'stack sizes', text: () => stackSizesTable(synth) },
  { file: DEPLOY_GUIDE, name: 'control tower', text: controlsTable },
];

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = mkdtempSync(join(tmpdir(), 'lab-deploy-guide-'));
  try {
    const before = readGuide(DEPLOY_GUIDE);
    const after = withGeneratedRegions(DEPLOY_GUIDE, before, deployGuideRegions(synthesizeStages(outdir)));
    if (after !== before) writeFileSync(join(ROOT, DEPLOY_GUIDE), after);
    console.log(`${after === before ? 'unchanged' : 'wrote'} ${DEPLOY_GUIDE}`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
