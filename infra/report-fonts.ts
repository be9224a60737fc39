/**
 * The results report's CJK fonts as file assets (shared/report/font-files.ts): `cdk deploy` uploads each
 * to the CDK bootstrap's staging bucket, as it uploads every function's code, under a key that is the
 * file's hash. The report function gets each object's location and the right to read exactly those
 * objects (in this account only); its own asset keeps Noto Sans only, under 2 MB zipped instead of 11.
 */
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { FETCHED_FACES, FONT_FILES } from '../shared/report/font-faces';
import { resolveFromRepo } from './bundling';
import type { LabFunction } from './lab-function';

export class ReportFonts extends Construct {
  constructor(fn: LabFunction) {
    super(fn, 'ReportFonts');
    for (const [face, variable] of Object.entries(FETCHED_FACES) as [keyof typeof FETCHED_FACES, string][]) {
      const asset = new Asset(this, face, { path: resolveFromRepo.resolve(FONT_FILES[face]) });
      fn.function.addEnvironment(variable, asset.s3ObjectUrl);
      fn.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:GetObject'],
          resources: [asset.bucket.arnForObjects(asset.s3ObjectKey)],
          // The bucket is named, not owned, by the policy: should the staging bucket ever be deleted and its
          // name taken by another account, the function still reads fonts from this account only.
          conditions: { StringEquals: { 'aws:ResourceAccount': Stack.of(this).account } },
        }),
      );
    }
  }
}
