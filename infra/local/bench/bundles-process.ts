/**
 * bench/bundles.ts's measurement in a process of its own, forked by `npm run bench` with the environment the
 * bench started with: in the bench's process (emulators running, the local stack's variables set) it stalled.
 * Sends its rows over IPC.
 */
import { measureBundles } from './bundles';

const rows = await measureBundles({ log: () => undefined });
process.send?.(rows, () => process.exit(0));
