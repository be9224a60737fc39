/**
 * A Lambda's Node.js runtime, as far as a test needs one: in a fresh process, with the asset folder as the
 * working directory (Lambda's /var/task), it imports the module the function's Handler names
 * (`index.handler` → index.mjs, index.js or index.cjs, as the runtime looks for them) and checks the export
 * is a function. Given an event, it invokes the handler once with a Lambda-shaped context and prints
 * `RESULT <json>` as its last line (the function's own log lines come before it). Given none, it prints
 * `LOADED <json>`: the libraries Node bundles (undici, acorn, …) that loading the function made it load.
 *
 *   node lambda-runtime.mjs <asset dir> <Handler> [<event as JSON>]
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, handlerName, eventJson] = process.argv.slice(2);
const dot = handlerName.lastIndexOf('.');
const [moduleName, exportName] = [handlerName.slice(0, dot), handlerName.slice(dot + 1)];
const file = ['.mjs', '.js', '.cjs'].map((extension) => join(dir, moduleName + extension)).find((candidate) => existsSync(candidate));
if (!file) {
  console.error(`no module ${moduleName} in ${dir}`);
  process.exit(2);
}
const handler = (await import(pathToFileURL(file).href))[exportName];
if (typeof handler !== 'function') {
  console.error(`${file} exports no function ${exportName}`);
  process.exit(3);
}
if (eventJson === undefined) {
  const nodeLibraries = process.moduleLoadList.filter((name) => name.startsWith('NativeModule internal/deps/'));
  process.stdout.write(`\nLOADED ${JSON.stringify(nodeLibraries)}\n`);
} else {
  const deadline = Date.now() + Number(process.env.LAMBDA_TIMEOUT_SECONDS ?? 30) * 1000;
  const name = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'function';
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${name}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  const result = await handler(JSON.parse(eventJson), context);
  process.stdout.write(`\nRESULT ${JSON.stringify(result ?? null)}\n`);
}
