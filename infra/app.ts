/**
 * The CDK app: one stack per stage, `LabApi-dev` unless `-c stage=<name>` names another file of
 * infra/stages/, and `LabApi-account`, what every stage of an account and region shares (API Gateway's
 * logging role, infra/account-stack.ts), which the stage's stack depends on: `cdk deploy LabApi-<stage>`
 * deploys it first when it is new or changed. The stacks are environment-agnostic (no account or region, no
 * lookups), so `cdk synth` works offline and gives the same templates on every machine; `cdk deploy` deploys
 * to the account and region of the caller's AWS profile.
 *
 * cdk-nag's AwsSolutions rules run on every synth, and its HIPAA Security rules on a stage that holds
 * patient data (stage file hipaaControls: prod): an unacknowledged finding fails it. Each acknowledgement
 * sits next to the resource it concerns, with its reason. AWS Control Tower's proactive controls run too
 * (infra/control-tower.ts), and report: the summary counts the controls not met, warns of any not listed
 * with its reason in CONTROLS_NOT_MET, and the whole result goes to control-tower-report.json.
 */
import { relative } from 'node:path';
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { ControlTowerControls, controlsNotMet } from './control-tower';
import { LabApiStack } from './lab-api-stack';
import { readSettings, stageOf } from './settings';
import { quietPerAssetLines, synthSummary, verboseSynth } from './synth-summary';

const app = new App();
if (!verboseSynth(app)) quietPerAssetLines();
const stage = stageOf(app);
const stack = new LabApiStack(app, `LabApi-${stage}`, {
  stage,
  description: `Lab Testing Service API (${stage})`,
});
// On every taggable resource, for cost allocation per service and stage (the account stack is every stage's).
Tags.of(stack).add('service', 'lab-api');
Tags.of(stack).add('stage', stage);
if (stack.accountStack) Tags.of(stack.accountStack).add('service', 'lab-api');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
if (stack.hipaaControls) Validations.of(app).addPlugins(new HIPAASecurityChecks(app, { verbose: true }));
const controls = new ControlTowerControls();
Validations.of(app).addPlugins(controls);
const assembly = app.synth();
const report = controls.writeReport(assembly.directory);
const controlLines = controls.summaryLines(controlsNotMet(readSettings(app, stage)), report && relative(process.cwd(), report));
// On stderr, as CDK's own messages: `cdk synth` prints the template on stdout when asked to.
process.stderr.write(`${[...synthSummary(assembly, process.uptime()), ...controlLines].join('\n')}\n`);
