/**
 * docs/deploy.md as a synth makes it true (infra/contract/deploy-guide.ts): its stack sizes are what one synth
 * of every stage counts, and its Control Tower table is the code's list. And the controls themselves, run as
 * every synth runs them (infra/control-tower.ts): each stage meets every control but those listed for its
 * settings, and fails each of those, so a change that breaks a new control, or meets a listed one, fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTROLS_NOT_MET, checkControls, controlRules, controlsNotMet, ControlTowerControls, type ControlsResult } from '../../infra/control-tower';
import { controlsTable, DEPLOY_GUIDE, stackSizesTable, type StagesSynth, stackRowName, synthesizeStages } from '../../infra/contract/deploy-guide';
import { readGuide, regionOf } from '../../infra/contract/guides';
import { readSettings, STAGES } from '../../infra/settings';
import { testApp } from './synth';

let synth: StagesSynth;
const committed = (name: string) => regionOf(readGuide(DEPLOY_GUIDE), DEPLOY_GUIDE, name).trim();
/** The table's rows, the header and its rule left out. */
const rows = (table: string) => table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| stack |') && !line.startsWith('| control |'));

beforeAll(() => {
  synth = synthesizeStages(process.env.LAB_TEST_CDK_OUTDIR!);
});

describe('docs/deploy.md', () => {
  it('holds the stack sizes one synth of every stage counts now (run npm run docs:guides)', () => {
    expect(committed('stack sizes')).toBe(stackSizesTable(synth));
  });

  it('lists every stack of every stage, nested ones and the account stack included, with a column per stage', () => {
    const table = stackSizesTable(synth);
    expect(table.split('\n')[0]).toBe(`| stack | ${STAGES.join(' | ')} |`);
    const names = new Set(synth.stages.flatMap(({ stage, templates }) => templates.map(({ stack }) => stackRowName(stack, stage))));
    expect(rows(table)).toHaveLength(names.size + 1);
    for (const row of ['`LabApi-<stage>`', '`SandboxRoutes`', '`Monitoring`', '`LabApi-account`']) expect(table).toContain(`| ${row} (`);
  });

  it('holds the Control Tower controls infra/control-tower.ts lists as not met, each with its reason (run npm run docs:guides)', () => {
    expect(committed('control tower')).toBe(controlsTable());
    expect(rows(controlsTable())).toHaveLength(CONTROLS_NOT_MET.length);
  });
});

describe("AWS Control Tower's proactive controls", () => {
  const results = new Map<string, ControlsResult>();
  const resultOf = (stage: (typeof STAGES)[number]) => {
    if (!results.has(stage)) results.set(stage, checkControls(synth.stages.find((s) => s.stage === stage)!.templates)!);
    return results.get(stage)!;
  };

  it('lists as not met only controls of the package, each once', () => {
    const controls = controlRules().map(({ control }) => control);
    expect(controls).toHaveLength(237);
    const listed = CONTROLS_NOT_MET.map(({ control }) => control);
    expect(listed.filter((control) => !controls.includes(control))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it.each(STAGES)('are met by the %s stage but for those listed for its settings, each of which it fails (a new one, or one met now, fails here)', (stage) => {
    const result = resultOf(stage);
    expect(result.notMet.map(({ control }) => control).sort()).toEqual(controlsNotMet(readSettings(testApp(), stage)).sort());
    for (const { control, resources } of result.notMet) expect(resources.length, control).toBeGreaterThan(0);
  });

  it('run only the rules for resource types the templates hold, and say how many of all', () => {
    const { controls, applicable } = resultOf('prod');
    expect(controls).toBe(237);
    expect(applicable).toBeGreaterThan(15);
    expect(applicable).toBeLessThan(40);
  });

  it("check the nested stacks' templates too, though CDK hands a validation plugin the top-level ones only", () => {
    const prod = synth.stages.find(({ stage }) => stage === 'prod')!;
    const top = prod.templates[0]!.file;
    const plugin = new ControlTowerControls();
    expect(plugin.validate({ templatePaths: [top], stackTemplates: [], appConstruct: prod.stack.node.root })).toEqual({ success: true, violations: [] });
    const stacks = new Set(plugin.result!.notMet.flatMap(({ resources }) => resources.map(({ stack }) => stack)));
    expect([...stacks]).toEqual(expect.arrayContaining(['LabApi-prod', 'LabApi-prod/ProfileRoutes', 'LabApi-prod/Monitoring']));
    expect([...stacks].filter((stack) => !stack.startsWith('LabApi-prod'))).toEqual([]);
  });

  it('report, never fail the synth: the summary counts them, and warns with what to do of one not listed and of a listed one met now', () => {
    const plugin = new ControlTowerControls();
    plugin.result = {
      controls: 237,
      applicable: 26,
      guardVersion: '3.1.1',
      seconds: 2.5,
      notMet: [
        { control: 'CT.LAMBDA.PR.3', title: 'Require a Lambda in a VPC', resources: [{ stack: 'LabApi-dev', logicalId: 'HealthFunction' }] },
        { control: 'CT.SQS.PR.1', title: 'Require a dead-letter queue', resources: [{ stack: 'LabApi-dev/Events', logicalId: 'Queue' }] },
      ],
    };
    const lines = plugin.summaryLines(['CT.LAMBDA.PR.3', 'CT.S3.PR.9'], 'cdk.out/control-tower-report.json');
    expect(lines).toEqual([
      '  Control Tower proactive controls (cfn-guard, 26 of 237 rules apply, 2.5 s): 2 not met, 1 of them as docs/deploy.md lists; report: cdk.out/control-tower-report.json',
      '    NEW: CT.SQS.PR.1 (Require a dead-letter queue) not met by LabApi-dev/Events Queue',
      '      what to do: meet it, or list it with the reason in infra/control-tower.ts (CONTROLS_NOT_MET), then npm run docs:guides',
      '    CT.S3.PR.9 is met now',
      '      what to do: remove it from CONTROLS_NOT_MET in infra/control-tower.ts, then npm run docs:guides',
    ]);
  });
});
