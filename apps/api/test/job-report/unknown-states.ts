import type { LinkDirectionState } from '@fabscope/contracts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../../src/lib/link-errors.ts';
import type { LinkIndex } from '../../src/lib/link-index.ts';
import { directionState } from '../oracles/object-path.ts';

/** Every direction of `index` with nothing known yet, its link up: a test fills in the values it records. */
export function unknownStates(index: LinkIndex): LinkDirectionState[] {
  return index.channels.map(({ fixed }) =>
    directionState(fixed, {
      bytesPerSecond: null,
      packetsPerSecond: null,
      transmitWaitTicksPerSecond: null,
      transmitWaitFraction: null,
      linkUp: true,
      errors: UNKNOWN_ERRORS,
      categories: UNKNOWN_CATEGORIES,
    }),
  );
}
