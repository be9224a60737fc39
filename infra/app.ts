/**
 * The CDK app: one stack per stage, `LabApi-dev` unless `-c stage=prod`. No account or region is fixed
 * here, so `cdk synth` works offline; `cdk deploy` takes them from the caller's AWS profile.
 */
import { App, Tags } from 'aws-cdk-lib';
import { LabApiStack, type StageName } from './lab-api-stack';

const STAGES: readonly StageName[] = ['dev', 'prod'];

function stageOf(app: App): StageName {
  const value: unknown = app.node.tryGetContext('stage') ?? 'dev';
  const stage = STAGES.find((candidate) => candidate === value);
  if (!stage) throw new Error(`Unknown stage ${JSON.stringify(value)}: use -c stage=dev or -c stage=prod`);
  return stage;
}

const app = new App();
const stage = stageOf(app);
const stack = new LabApiStack(app, `LabApi-${stage}`, {
  stage,
  description: `Lab Testing Service API (${stage})`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// On every taggable resource, for cost allocation per service and stage.
Tags.of(stack).add('service', 'lab-api');
Tags.of(stack).add('stage', stage);
app.synth();
