/**
 * The delivery app: the GitHub OIDC provider and the roles of the pipeline (delivery-stack.ts), one stack per
 * AWS account, deployed by DevOps with their own credentials, once and after each change here:
 *
 *   npx cdk deploy -a "npx tsx infra/delivery/app.ts" -c githubRepo=<owner>/<name> -c stages=staging -c diffRole=true
 *
 * Like the LabApi app it is environment-agnostic (the account and region of the caller's credentials) and
 * cdk-nag's AwsSolutions rules run on its synth. docs/delivery.md says what to give in which account.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DeliveryStack } from './delivery-stack';
import { readDeliverySettings } from './settings';

const app = new App();
const stack = new DeliveryStack(app, 'LabApiDelivery', {
  ...readDeliverySettings(app),
  description: 'Lab Testing Service API: the GitHub OIDC roles of its delivery pipeline',
});
Tags.of(stack).add('service', 'lab-api');
Tags.of(stack).add('component', 'delivery');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
