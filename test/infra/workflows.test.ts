/**
 * The delivery pipeline's GitHub workflows (.github/workflows/, docs/delivery.md): each validates with
 * action-validator (the real binary, offline: GitHub's workflow schema, and every `needs` resolved), and
 * what the schema cannot see is checked here: who may write what, which job assumes which role, the order
 * main's jobs run in, and where the approval stands.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../infra/api-function';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string | { name: string; url?: string };
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[] } | null>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');
const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
const workflow = (name: string) => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow;
const pullRequest = workflow('pull-request.yml');
const delivery = workflow('delivery.yml');
const allJobs = files.flatMap((file) => Object.entries(workflow(file).jobs).map(([id, job]) => ({ file, id, job })));

const ASSUMES_ROLE = 'aws-actions/configure-aws-credentials@';
const assumesRole = (job: Job) => job.steps.some((step) => step.uses?.startsWith(ASSUMES_ROLE));
const roleStep = (job: Job) => job.steps.find((step) => step.uses?.startsWith(ASSUMES_ROLE));
const environmentOf = (job: Job) => (typeof job.environment === 'string' ? job.environment : job.environment?.name);
const needsOf = (job: Job) => [job.needs ?? []].flat();
const scripts = (job: Job) => job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run])).join('\n');

/** action-validator on `path`, as `npx action-validator <path>` runs it. */
function actionValidator(path: string) {
  const bin = join(REPO_ROOT, 'node_modules', '.bin', 'action-validator');
  return spawnSync(process.execPath, [bin, path], { encoding: 'utf8', timeout: 60_000 });
}

describe('the GitHub workflows: validation', () => {
  it('finds the pull request and the delivery workflows', () => {
    expect(files.sort()).toEqual(['delivery.yml', 'pull-request.yml']);
  });

  it.each(files)('%s validates with action-validator', (file) => {
    const result = actionValidator(join(WORKFLOWS, file));
    expect(result.stderr + result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('action-validator refuses a workflow with a misspelt key, so its pass means something', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-workflow-'));
    try {
      const path = join(dir, 'broken.yml');
      writeFileSync(path, 'on: push\njobs:\n  test:\n    runs-on: ubuntu-24.04\n    stepz:\n      - run: npm test\n');
      const result = actionValidator(path);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("Additional property 'stepz' is not allowed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads only steps and job outputs that exist in its expressions', () => {
    const unresolved: string[] = [];
    for (const { file, id, job } of allJobs) {
      const text = JSON.stringify(job);
      const stepIds = new Set(job.steps.map((step) => step.id));
      for (const [, step] of text.matchAll(/\bsteps\.([\w-]+)\./g)) if (!stepIds.has(step)) unresolved.push(`${file} ${id}: steps.${step}`);
      for (const [, needed, output] of text.matchAll(/\bneeds\.([\w-]+)\.outputs\.([\w-]+)/g)) {
        if (!needsOf(job).includes(needed!) || !(output! in (workflow(file).jobs[needed!]?.outputs ?? {}))) {
          unresolved.push(`${file} ${id}: needs.${needed}.outputs.${output}`);
        }
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('pins every action to a major version', () => {
    const uses = allJobs.flatMap(({ job }) => job.steps.flatMap((step) => (step.uses ? [step.uses] : [])));
    expect(uses.length).toBeGreaterThan(0);
    for (const action of uses) expect(action).toMatch(/^[\w-]+\/[\w.-]+@v\d+$/);
  });
});

describe('the GitHub workflows: permissions and roles', () => {
  it('grants nothing at the top of a workflow: every job lists its own permissions', () => {
    for (const file of files) expect(workflow(file).permissions, file).toEqual({});
    for (const { file, id, job } of allJobs) expect(job.permissions, `${file} ${id}`).toBeTypeOf('object');
  });

  it('gives the pull request jobs no write permission but the OIDC token of the job that assumes the diff role', () => {
    for (const [id, job] of Object.entries(pullRequest.jobs)) {
      const writes = Object.entries(job.permissions ?? {}).filter(([, level]) => level === 'write');
      expect(writes, id).toEqual(assumesRole(job) ? [['id-token', 'write']] : []);
    }
  });

  it('lets a job write an OIDC token exactly when it assumes an AWS role', () => {
    for (const { file, id, job } of allJobs) expect(job.permissions?.['id-token'] === 'write', `${file} ${id}`).toBe(assumesRole(job));
  });

  it("gives no job any permission beyond reading the repository and writing its OIDC token, but the prod deploy's read of its environment's rules", () => {
    for (const { file, id, job } of allJobs) {
      const allowed = id === 'deploy-prod' ? /^(contents: read|id-token: write|actions: read)$/ : /^(contents: read|id-token: write)$/;
      for (const [scope, level] of Object.entries(job.permissions ?? {})) expect(`${scope}: ${level}`, `${file} ${id}`).toMatch(allowed);
    }
  });

  it('deploys nothing from a pull request and enters no GitHub environment there', () => {
    for (const [id, job] of Object.entries(pullRequest.jobs)) {
      expect(scripts(job), id).not.toMatch(/cdk (deploy|destroy)|npm run smoke/);
      expect(job.environment, id).toBeUndefined();
    }
  });
});

describe('the pull request workflow', () => {
  it('runs on pull requests into main', () => {
    expect(pullRequest.on).toEqual({ pull_request: { branches: ['main'] } });
  });

  it('runs the tests exactly as CI does: bash .ci/run', () => {
    expect(scripts(pullRequest.jobs.test!)).toBe('bash .ci/run');
  });

  it("diffs the staging stage with the diff role and puts the diff in the job's summary", () => {
    const diff = pullRequest.jobs.diff!;
    expect(roleStep(diff)?.with).toEqual({ 'role-to-assume': '${{ vars.DIFF_ROLE_ARN }}', 'aws-region': '${{ vars.DIFF_AWS_REGION }}' });
    expect(scripts(diff)).toContain('npx cdk diff -c stage=staging --method template');
    expect(scripts(diff)).toContain('>> "$GITHUB_STEP_SUMMARY"');
  });

  it("skips the diff of a fork's pull request, which gets no OIDC token", () => {
    expect(pullRequest.jobs.diff!.if).toBe('github.event.pull_request.head.repo.full_name == github.repository');
  });
});

describe('the delivery workflow', () => {
  it('runs on pushes to main', () => {
    expect(delivery.on).toEqual({ push: { branches: ['main'] } });
  });

  it('runs the tests exactly as CI does: bash .ci/run', () => {
    expect(scripts(delivery.jobs.test!)).toBe('bash .ci/run');
  });

  it('runs test → deploy staging → smoke staging → deploy prod → smoke prod, each job after the one before', () => {
    expect(Object.fromEntries(Object.entries(delivery.jobs).map(([id, job]) => [id, needsOf(job)]))).toEqual({
      test: [],
      'deploy-staging': ['test'],
      'smoke-staging': ['deploy-staging'],
      'deploy-prod': ['smoke-staging'],
      'smoke-prod': ['deploy-prod'],
    });
  });

  it('holds the prod deploy for the approval of the GitHub environment prod, after the smoke test of staging', () => {
    const deployProd = delivery.jobs['deploy-prod']!;
    expect(environmentOf(deployProd)).toBe('prod');
    expect(needsOf(deployProd)).toContain('smoke-staging');
    expect(deployProd.if).toBeUndefined();
  });

  it('refuses, as its first step, to deploy prod unless the environment prod requires a reviewer (private repositories have none without Enterprise)', () => {
    const [first] = delivery.jobs['deploy-prod']!.steps;
    expect(first?.run).toContain('repos/$GITHUB_REPOSITORY/environments/prod');
    expect(first?.run).toContain('select(.type == "required_reviewers")');
    expect(first?.run).toMatch(/-lt 1 \]; then[\s\S]*exit 1/);
  });

  it.each(['staging', 'prod'])("deploys %s in its GitHub environment, with that environment's deploy role, into the stage of that name", (stage) => {
    const job = delivery.jobs[`deploy-${stage}`]!;
    expect(environmentOf(job)).toBe(stage);
    expect(roleStep(job)?.with).toEqual({ 'role-to-assume': '${{ vars.DEPLOY_ROLE_ARN }}', 'aws-region': '${{ vars.AWS_REGION }}' });
    expect(scripts(job)).toContain(`npx cdk deploy -c stage=${stage} LabApi-${stage} --require-approval never`);
    expect(scripts(job)).toContain(`.["LabApi-${stage}"].ApiUrl`);
  });

  it('never runs two deploys of one stage at once, nor cancels a deploy under way', () => {
    const deploys = Object.entries(delivery.jobs).filter(([, job]) => /cdk deploy/.test(scripts(job)));
    expect(deploys.map(([id, job]) => [id, job.concurrency])).toEqual([
      ['deploy-staging', { group: 'deploy-staging', 'cancel-in-progress': false }],
      ['deploy-prod', { group: 'deploy-prod', 'cancel-in-progress': false }],
    ]);
  });

  it('deploys a stage only while its commit is still the newest of main, so a late run never rolls a stage back', () => {
    // Prod's reviewer check comes first (it only refuses); the newest-commit guard comes before anything that deploys.
    for (const [id, guards] of [
      ['deploy-staging', 0],
      ['deploy-prod', 1],
    ] as const) {
      const [guard, ...rest] = delivery.jobs[id]!.steps.slice(guards);
      expect(guard!.id, id).toBe('newest');
      for (const step of rest) expect(step.if, `${id} ${step.name ?? step.uses ?? step.run}`).toBe("steps.newest.outputs.deploy == 'true'");
    }
  });

  it.each([
    ['staging', 'staging'],
    ['prod', 'prod-smoke'],
  ])("smoke-tests %s with npm run smoke, the stack's ApiUrl output and the SMOKE_KEY of the environment %s, with no AWS role", (stage, environment) => {
    const smoke = delivery.jobs[`smoke-${stage}`]!;
    expect(environmentOf(smoke)).toBe(environment);
    expect(smoke.permissions).toEqual({ contents: 'read' });
    const step = smoke.steps.find((s) => s.run?.includes('npm run smoke'))!;
    // The key in the environment, never on the command line, which npm echoes.
    expect(step.run).toBe('npm run smoke -- --base "$API_URL"');
    expect(step.env).toEqual({ API_URL: `\${{ needs.deploy-${stage}.outputs.api-url }}`, SMOKE_KEY: '${{ secrets.SMOKE_KEY }}' });
  });

  it('asks for one approval: the prod deploy is the only job of the environment prod', () => {
    expect(allJobs.filter(({ job }) => environmentOf(job) === 'prod').map(({ id }) => id)).toEqual(['deploy-prod']);
  });

  it('reads the API URL from an output the LabApi stack declares', () => {
    expect(readFileSync(join(REPO_ROOT, 'infra', 'lab-api-stack.ts'), 'utf8')).toMatch(/new CfnOutput\(this, 'ApiUrl', \{ value: api\.url/);
    expect(readFileSync(join(REPO_ROOT, 'infra', 'app.ts'), 'utf8')).toContain('`LabApi-${stage}`');
  });
});
