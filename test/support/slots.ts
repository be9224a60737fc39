/** Bookable slot starts for tests (no store, no server: e2e may use it too); one picker per test file. */
import { BERLIN_MITTE, createSlotPicker } from '../../infra/local/slot-picker';

export { BERLIN_MITTE };

/** A new slot on the location's first open day at least `days` days ahead (infra/local/slot-picker.ts). */
export const slotIn = createSlotPicker();
