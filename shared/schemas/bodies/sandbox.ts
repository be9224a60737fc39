/** POST /sandbox/appointments/{id}/results: which answer of the lab to simulate (docs/sandbox.md). */
import * as v from 'valibot';
import { SIMULATED_OUTCOMES } from '../../domain/simulated-report';

export const SimulateResultsBody = v.strictObject({
  outcome: v.pipe(
    v.picklist(SIMULATED_OUTCOMES, `must be one of ${SIMULATED_OUTCOMES.join(', ')}`),
    v.description(
      'normal: every planned test, final, inside its range; partial: the first half of them; critical: as normal, the first clinical test beyond its ' +
        'critical limit; rejected: the specimen could not be tested (every planned test not performed); corrected: a correction of the first clinical value.',
    ),
  ),
});
