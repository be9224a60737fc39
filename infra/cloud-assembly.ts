/**
 * A cloud assembly as `cdk synth -o <dir>` leaves it, read the way CloudFormation and Lambda will: each
 * stack's template and its nested stacks' templates, and every function with the asset folder that
 * becomes its code. The synth summary (infra/synth-summary.ts) prints it; the tests read it
 * (test/support/cloud-assembly.ts, which also runs the CLI as DevOps do).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deflateRawSync } from 'node:zlib';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}
interface Template {
  Resources: Record<string, Resource>;
}

export interface AssemblyStack {
  /** The stack's name, or `<parent>/<nested stack's construct id>` for a nested one. */
  readonly name: string;
  readonly resources: number;
  readonly terminationProtection: boolean;
}

export interface AssemblyFunction {
  /** The construct path (aws:cdk:path), e.g. LabApi-dev/ProfileRoutes/GetProfile/Function/Resource. */
  readonly path: string;
  readonly assetDir: string;
  readonly handler: string;
  readonly runtime: string;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
  /** As the template gives them: strings, or CloudFormation expressions resolved at deploy. */
  readonly environment: Readonly<Record<string, unknown>>;
}

export interface Assembly {
  readonly dir: string;
  readonly stacks: readonly AssemblyStack[];
  readonly functions: readonly AssemblyFunction[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

export function readAssembly(dir: string): Assembly {
  const manifest = readJson<{ artifacts: Record<string, { type: string; properties?: { templateFile: string; terminationProtection?: boolean } }> }>(
    join(dir, 'manifest.json'),
  );
  const stacks: AssemblyStack[] = [];
  const functions: AssemblyFunction[] = [];
  const visit = (name: string, templateFile: string, terminationProtection: boolean) => {
    const { Resources } = readJson<Template>(join(dir, templateFile));
    stacks.push({ name, resources: Object.keys(Resources).length, terminationProtection });
    for (const [id, resource] of Object.entries(Resources)) {
      const asset = resource.Metadata?.['aws:asset:path'];
      if (resource.Type === 'AWS::CloudFormation::Stack' && typeof asset === 'string') {
        visit(
          `${name}/${
            String(resource.Metadata?.['aws:cdk:path'])
              .split('/')
              .at(-2)
              ?.replace(/\.NestedStack$/, '') ?? id
          }`,
          asset,
          terminationProtection,
        );
      }
      if (resource.Type === 'AWS::Lambda::Function' && typeof asset === 'string') {
        const p = resource.Properties!;
        functions.push({
          path: String(resource.Metadata?.['aws:cdk:path']),
          assetDir: join(dir, asset),
          handler: String(p.Handler),
          runtime: String(p.Runtime),
          timeoutSeconds: Number(p.Timeout ?? 3),
          memorySize: Number(p.MemorySize ?? 128),
          environment: (p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
        });
      }
    }
  };
  for (const [name, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type === 'aws:cloudformation:stack') visit(name, artifact.properties!.templateFile, artifact.properties!.terminationProtection ?? false);
  }
  return { dir, stacks, functions };
}

/** A file asset as the assembly's `<stack>.assets.json` lists it: what `cdk deploy` uploads before the stack. */
export interface FileAsset {
  /** The file in the assembly folder. */
  readonly file: string;
  /** Its destination as CloudFormation would resolve it, `${AWS::AccountId}` and `${AWS::Region}` left in. */
  readonly bucketName: string;
  readonly objectKey: string;
}

/** The single files (not zipped folders: those are the functions' code) `cdk deploy` uploads to S3. */
export function fileAssets(assembly: Assembly): FileAsset[] {
  const manifests = readdirSync(assembly.dir).filter((name) => name.endsWith('.assets.json'));
  return manifests.flatMap((name) => {
    const { files } = readJson<{
      files?: Record<string, { source: { path: string; packaging?: string }; destinations: Record<string, { bucketName: string; objectKey: string }> }>;
    }>(join(assembly.dir, name));
    return Object.values(files ?? {})
      .filter(({ source }) => source.packaging === 'file')
      .flatMap(({ source, destinations }) =>
        Object.values(destinations).map(({ bucketName, objectKey }) => ({ file: join(assembly.dir, source.path), bucketName, objectKey })),
      );
  });
}

/**
 * The size of a folder zipped as the CDK zips a function's code (deflate, level 9): each file deflated, plus
 * the zip's headers. Lambda's deploy-size limits and a cold start's download are about this number.
 */
export function zippedSize(dir: string): number {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return files.reduce((sum, entry) => {
    const path = relative(dir, join(entry.parentPath, entry.name));
    // Local header (30) and central directory entry (46), each with the name; the archive's end record once.
    return sum + deflateRawSync(readFileSync(join(entry.parentPath, entry.name)), { level: 9 }).length + 76 + 2 * Buffer.byteLength(path);
  }, 22);
}
