/**
 * The synth's one build of every function (infra/bundle-all.ts), as CDK's local bundling calls it: what an
 * asset folder receives, and the refusal of a bundle that would import a side module its function lacks.
 * The first call builds every bundle once for the file (a few seconds); test/integration/deployable.test.ts
 * loads every asset of a real synth.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PrebuiltBundle, removeBuild } from '../../infra/bundle-all';
import { PACKAGE_FILES, SIDE_MODULES } from '../../infra/route-classes';
import { routes } from '../../shared/routes';

const folders: string[] = [];
const assetFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'lab-asset-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  removeBuild();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();

describe('a function asset of the one build', () => {
  it("holds the report's bundle as index.mjs with its map, its side module with its map, and its package files", () => {
    const asset = assetFolder();
    const route = 'getAppointmentResultsReport';
    new PrebuiltBundle(routes[route].handler, SIDE_MODULES[route], PACKAGE_FILES[route]).tryBundle(asset, {} as never);
    expect(filesIn(asset)).toEqual([
      'font-object.mjs',
      'font-object.mjs.map',
      'index.mjs',
      'index.mjs.map',
      'node_modules/@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
      'node_modules/@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
      'node_modules/@expo-google-fonts/noto-sans/package.json',
    ]);
    expect(readFileSync(join(asset, 'index.mjs'), 'utf8')).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    expect(readFileSync(join(asset, 'font-object.mjs'), 'utf8')).toMatch(/\/\/# sourceMappingURL=font-object\.mjs\.map\s*$/);
  });

  it('holds a plain route its bundle and map only, the map naming sources from the repository', () => {
    const asset = assetFolder();
    new PrebuiltBundle(routes.getProfile.handler).tryBundle(asset, {} as never);
    expect(filesIn(asset)).toEqual(['index.mjs', 'index.mjs.map']);
    const { sources } = JSON.parse(readFileSync(join(asset, 'index.mjs.map'), 'utf8')) as { sources: string[] };
    expect(sources).toContain('../../functions/profiles/get.ts');
  });

  it('is refused when its bundle imports a side module the function does not ship, which would fail at run time', () => {
    expect(() => new PrebuiltBundle(routes.getAppointmentResultsReport.handler).tryBundle(assetFolder(), {} as never)).toThrow(
      'functions/results/report.ts imports ./font-object.mjs at run time, but its function ships no such side module (SIDE_MODULES)',
    );
  });
});
