/**
 * When `npm start` must stop. `npm start` execs straight into this Node process (package.json), so npm
 * forwards SIGINT and SIGTERM to it; SIGHUP comes with a closed terminal. npm does not forward SIGHUP (it
 * dies of it), and nothing is forwarded when npm is killed outright: then this process is adopted by
 * another one, its parent pid changes, and that is noticed within half a second.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function onStopRequest(stop: (reason: string) => void): void {
  for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop('parent process gone');
  }, 500);
  watch.unref();
}
