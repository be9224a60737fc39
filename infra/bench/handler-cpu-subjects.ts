/**
 * The subjects of the handler CPU measure (bench/handler-cpu-process.ts) in one module, which
 * bench/handler-cpu.ts bundles as the stack bundles a function (bench/bundle-build.ts): the route's handler and
 * its floors then run as Lambda runs them, minified ES modules with the stack's aliases, one DynamoDB client
 * between them, instead of as tsx runs the sources (which wraps every function it creates in a naming helper).
 */
export { handler } from '../../functions/profiles/get';
export { bareGet, bareGetPut } from './floor-handlers';
