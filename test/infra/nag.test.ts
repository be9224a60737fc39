/**
 * cdk-nag's AwsSolutions rules over both stages (one synth of an app holding both stacks), as
 * `npm run synth` runs them: no finding may be left unacknowledged, every acknowledgement carries a
 * written reason, and none is stale (each still silences a finding that would otherwise fail the synth).
 */
import { type App, Stage, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LabApiStack } from '../../infra/lab-api-stack';
import { labApiStack, testApp } from './synth';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

let app: App;

beforeAll(() => {
  app = testApp();
  for (const stage of ['dev', 'prod'] as const) labApiStack(app, stage);
  // Prod once more with CORS on (README "CORS": OPTIONS methods without authorization, more headers).
  const withCors = new Stage(app, 'WithCors');
  withCors.node.setContext('corsAllowOrigins', 'https://app.example');
  new LabApiStack(withCors, 'LabApi-prod', { stage: 'prod' });
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

describe('cdk-nag AwsSolutions checks', () => {
  it('find nothing unacknowledged in the dev and prod stacks', () => {
    const report = new AwsSolutionsChecks(app).validateScope(app);
    const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('have every acknowledgement explained with a written reason', () => {
    const acks = acknowledgements(app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(60);
    }
    // The list, for the record (and the PR): one line per distinct rule and reason.
    const distinct = [...new Map(acks.map((a) => [`${a.id} ${a.reason}`, a])).values()];
    console.info(distinct.map((a) => `${a.id} (${acks.filter((b) => b.id === a.id && b.reason === a.reason).length}×): ${a.reason}`).join('\n'));
  });

  it('acknowledge only findings that exist: no stale acknowledgement', () => {
    // The same rules with acknowledgements ignored: the findings they silence.
    const raw = new AwsSolutionsChecks(app);
    (raw as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
    const findings = raw.validateScope(app).violations.flatMap((v) => v.violatingResources.map((r) => ({ id: v.ruleName, path: r.constructPath ?? '' })));
    const stale = acknowledgements(app).filter(
      (ack) => !findings.some((finding) => finding.id === ack.id && (finding.path === ack.path || finding.path.startsWith(`${ack.path}/`))),
    );
    expect(stale).toEqual([]);
  });
});
