/**
 * What the operators' CLIs (keys, lab) share: a usage error, answered with the usage text and exit code 2,
 * apart from a failure (exit code 1); and node:util's parseArgs refusals (an unknown option, a missing
 * value) read as usage errors.
 */
export class UsageError extends Error {}

/** `parse()` (a parseArgs call) whose refusal is a usage error. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs a CLI's main: a usage error prints the message and the usage (exit 2), any other error `<cli>: message` (exit 1). */
export function runCli(name: string, usage: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`);
      process.exit(2);
    }
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
