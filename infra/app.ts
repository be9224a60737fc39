/**
 * The CDK app: one stack per stage, `LabApi-dev` unless `-c stage=prod`. The stack is environment-agnostic
 * (no account or region, no lookups), so `cdk synth` works offline and gives the same template on every
 * machine; `cdk deploy` deploys to the account and region of the caller's AWS profile.
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
});
// On every taggable resource, for cost allocation per service and stage.
Tags.of(stack).add('service', 'lab-api');
Tags.of(stack).add('stage', stage);
app.synth();
