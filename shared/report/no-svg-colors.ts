/**
 * What @cantoo/pdf-lib imports from `culori`: a CSS color parser, which it uses only to read the colors of
 * an SVG it draws (`colorString`, api/svg.js). The results report draws no SVG, so the bundles alias the
 * package to this module (infra/bundling.ts LAMBDA_BUNDLE.alias), as shared/report/no-html.ts does for the
 * SVG's HTML parser: 42 KB less for V8 to compile at every cold start of the report, and the color spaces
 * culori registers when it loads.
 *
 * pdf-lib makes its converter when it loads (`converter('rgb')`), so the converter is made; reading a color
 * with it throws, naming the package, so that a report that one day draws SVG fails in
 * test/integration/deployable.test.ts, which renders the bundled report, not in production.
 */
export const converter =
  (_mode: string) =>
  (_color: unknown): never => {
    throw new Error('culori is not bundled with the report (shared/report/no-svg-colors.ts)');
  };
