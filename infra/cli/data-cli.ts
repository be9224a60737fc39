/**
 * `npm run data -- plan|apply [--table NAME] [--data-dir DIR]`: the reference data of infra/data/*.yaml
 * (profile groups, location groups, locations, panels, biomarkers) into a table.
 *
 *   plan    prints what apply would create, update or deactivate; writes nothing
 *   apply   prints the same plan, then applies it (a table that matches the files gets no write)
 *   seats   gives appointments booked before seats existed their seats (infra/data/seats.ts); once per table
 *
 * Every file is checked first: one invalid record anywhere and nothing is written (the message names the
 * file, the path inside it and the reason; exit code 2). Records are never deleted: one the files no longer
 * list is deactivated. Against the running local stack by default (as `npm run keys`); `--table NAME`
 * targets a deployed table, with the region and credentials of the usual AWS environment. A bad argument:
 * the message and the usage, exit code 2; any other failure (no region, no credentials, a table that is not
 * there) one line, `data: <why>`, exit code 1, as the keys CLI answers (infra/cli/usage.ts).
 */
import { parseArgs } from 'node:util';
import { localFunctionEnvironment } from '../local/environment';
import { runningStackSettings } from '../local/stack-file';
import { DATA_DIR, InvalidReferenceData, loadReferenceData } from '../data/reference-data';
import { asUsage, runCli, UsageError } from './usage';

const USAGE = `usage:
  npm run data -- plan  [--table TABLE] [--data-dir DIR]
  npm run data -- apply [--table TABLE] [--data-dir DIR]
  npm run data -- seats [--table TABLE]

plan prints what apply would change; apply prints it, then changes it. Without --table: the running
npm start stack; --table: a deployed table, with your usual AWS credentials and region. The files are
infra/data/*.yaml unless --data-dir names another folder.`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args: argv,
      options: { table: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
    }),
  );
  const [command, ...rest] = positionals;
  if (values.help) return void console.log(USAGE);
  if (command !== 'plan' && command !== 'apply' && command !== 'seats') throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
  // Every file checked before the table is even looked at.
  let data;
  try {
    data = loadReferenceData(values['data-dir'] ?? DATA_DIR);
  } catch (error) {
    if (!(error instanceof InvalidReferenceData)) throw error;
    console.error(`refused, nothing written: ${error.message}`);
    process.exitCode = 2;
    return;
  }

  if (values.table) {
    process.env.TABLE_NAME = values.table;
    delete process.env.DYNAMODB_ENDPOINT;
  } else {
    Object.assign(process.env, localFunctionEnvironment(runningStackSettings()));
  }
  // Loaded after the environment is set: shared/ reads its configuration once, at import.
  if (command === 'seats') {
    const { seatLegacyAppointments } = await import('../data/seats');
    const { seated, skipped } = await seatLegacyAppointments();
    console.log(`${process.env.TABLE_NAME}: ${seated} appointment(s) took their seat; ${skipped} changed meanwhile and needed none`);
    return;
  }
  const { applyPlan, describePlan, planReferenceData } = await import('../data/apply');
  const plan = await planReferenceData(data);
  console.log(`${command === 'plan' ? 'would change' : 'changing'} ${process.env.TABLE_NAME}:`);
  for (const line of describePlan(plan)) console.log(`  ${line}`);
  if (command === 'apply') {
    await applyPlan(plan);
    console.log(plan.changes.length === 0 ? 'nothing to apply' : `applied ${plan.changes.length} change(s)`);
  }
}

runCli('data', USAGE, () => main(process.argv.slice(2)));
