/**
 * cdk-nag's rules as `npm run synth` runs them: AwsSolutions over both stages, HIPAA Security over the stacks
 * of a stage that holds patient data (hipaaControls: prod), in one synth of an app holding every stack. No
 * finding may be left unacknowledged, every acknowledgement carries a written reason, and none is stale
 * (each still silences a finding of its pack that would otherwise fail the synth; a HIPAA acknowledgement
 * where the HIPAA pack does not run is stale too).
 */
import { type App, Stage, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LabApiStack } from '../../infra/lab-api-stack';
import { prod } from '../../infra/stages/prod';
import { EXAMPLE_LAB_INTERFACE, labApiStack, testApp } from './synth';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

let app: App;
/** The stacks the HIPAA pack runs on, as infra/app.ts decides it: those whose stage has hipaaControls on. */
let hipaaStacks: LabApiStack[];

beforeAll(() => {
  app = testApp();
  const stacks = (['dev', 'prod'] as const).map((stage) => labApiStack(app, stage));
  // Prod once more with CORS on (docs/deploy.md "CORS": OPTIONS methods without authorization, more headers).
  const withCors = new Stage(app, 'WithCors');
  withCors.node.setContext('corsAllowOrigins', 'https://app.example');
  stacks.push(new LabApiStack(withCors, 'LabApi-prod', { stage: 'prod' }));
  // And with a lab interface (issue #51): the lab order sender in a VPC, its security group, queues and alarm.
  const withLab = new Stage(app, 'WithLab');
  stacks.push(new LabApiStack(withLab, 'LabApi-prod', { stage: 'prod', stageFile: { ...prod, labInterface: EXAMPLE_LAB_INTERFACE } }));
  hipaaStacks = stacks.filter((stack) => stack.hipaaControls);
  // Synthesis runs the aspects and finishes the tree (tags, policies) that the rules then read.
  app.synth();
});

function acknowledgements(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

const describeFindings = (pack: NagPack, scopes: readonly IConstruct[]) =>
  scopes.flatMap((scope) =>
    pack.validateScope(scope).violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
  );

/** What `pack` finds in `scopes` with acknowledgements ignored: the findings acknowledgements silence. */
function rawFindings(pack: NagPack, scopes: readonly IConstruct[]): { id: string; path: string }[] {
  (pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
  return scopes.flatMap((scope) =>
    pack.validateScope(scope).violations.flatMap((v) => v.violatingResources.map((r) => ({ id: v.ruleName, path: r.constructPath ?? '' }))),
  );
}

/** The acknowledgements of `prefix` that silence none of `findings`. */
function staleAmong(prefix: string, findings: readonly { id: string; path: string }[]): Acknowledgement[] {
  return acknowledgements(app).filter(
    (ack) =>
      ack.id.startsWith(prefix) && !findings.some((finding) => finding.id === ack.id && (finding.path === ack.path || finding.path.startsWith(`${ack.path}/`))),
  );
}

describe('cdk-nag', () => {
  it('runs the HIPAA Security checks on every prod stack and not on dev', () => {
    expect(hipaaStacks.map((stack) => stack.node.path).sort()).toEqual(['LabApi-prod', 'WithCors/LabApi-prod', 'WithLab/LabApi-prod']);
  });

  it('AwsSolutions checks find nothing unacknowledged in the dev and prod stacks', () => {
    expect(describeFindings(new AwsSolutionsChecks(), [app])).toEqual([]);
  });

  it('HIPAA Security checks find nothing unacknowledged in the prod stacks', () => {
    expect(describeFindings(new HIPAASecurityChecks(), hipaaStacks)).toEqual([]);
  });

  it('has every acknowledgement explained with a written reason', () => {
    const acks = acknowledgements(app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.id, ack.path).toMatch(/^(AwsSolutions-[A-Z]+\d+|HIPAA\.Security-[A-Za-z0-9]+)(\[.+\])?$/);
      expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(60);
    }
    // The list, for the record (and the PR): one line per distinct rule and reason.
    const distinct = [...new Map(acks.map((a) => [`${a.id} ${a.reason}`, a])).values()];
    console.info(distinct.map((a) => `${a.id} (${acks.filter((b) => b.id === a.id && b.reason === a.reason).length}×): ${a.reason}`).join('\n'));
  });

  it('acknowledges only AwsSolutions findings that exist: no stale acknowledgement', () => {
    expect(staleAmong('AwsSolutions-', rawFindings(new AwsSolutionsChecks(), [app]))).toEqual([]);
  });

  it('acknowledges only HIPAA findings that exist where the HIPAA checks run: none in dev, none stale in prod', () => {
    expect(staleAmong('HIPAA.Security-', rawFindings(new HIPAASecurityChecks(), hipaaStacks))).toEqual([]);
  });
});
