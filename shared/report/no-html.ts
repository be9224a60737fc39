/**
 * What @cantoo/pdf-lib imports from `html-entities` and `node-html-better-parser`: an HTML parser and
 * entity encoder for drawing SVG, reading XFA forms and writing PDF/A metadata, none of which the results
 * report does. The bundles alias both packages to this module (infra/bundling.ts LAMBDA_BUNDLE.alias), which
 * drops 83 KB from the report function (html-entities twice, as ES module and as CommonJS) and the tables of
 * named references html-entities builds when it loads, about 16 ms of every cold start.
 *
 * The names are those pdf-lib imports (a missing one fails the build). A call throws, naming the feature,
 * so that a report that one day draws SVG fails in test/integration/deployable.test.ts, which renders the
 * bundled report, not in production.
 */
const notBundled = (feature: string) => (): never => {
  throw new Error(`${feature} is not bundled with the report (shared/report/no-html.ts)`);
};

/** html-entities' encoder: PDF/A and XFA metadata. */
export const encode = notBundled('html-entities encode');
/** node-html-better-parser's parser: SVG and XFA. */
export const parse = notBundled('node-html-better-parser parse');
/** Read only inside the parser's callers; the values of node-html-better-parser's enum. */
export const NodeType = { ELEMENT_NODE: 1, TEXT_NODE: 3, COMMENT_NODE: 8 } as const;
