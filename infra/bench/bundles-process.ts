/**
 * bench/bundles.ts's measurement in a process of its own, forked by `npm run bench` with the environment the
 * bench started with (none of the local stack's variables), and bounded by BENCH_BUNDLES_TIMEOUT_S.
 * Sends its rows over IPC; its progress (about 1,200 processes: 20 imports of each of ~58 bundles, some
 * minutes) goes to stderr.
 */
import { measureBundles } from './bundles';

const rows = await measureBundles();
process.send?.(rows, () => process.exit(0));
