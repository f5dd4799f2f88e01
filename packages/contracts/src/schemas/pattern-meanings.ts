import { CURSOR_PATTERN } from '../limits.ts';
import { ANALYSIS_PATTERN } from './analysis.ts';
import { STEP_PATTERN, TIME_PATTERN } from './time.ts';

/** What a value of each pattern is, said when one does not match (apps/api validation-message.ts). */
export const PATTERN_MEANINGS: ReadonlyMap<string, string> = new Map([
  [
    TIME_PATTERN,
    'is neither Unix seconds (1700000000.5), RFC 3339 (2026-11-22T10:02:15Z) nor relative (now, now-5m, -5m)',
  ],
  [STEP_PATTERN, 'is neither seconds of at least 0.001 (15, 0.5) nor a duration (15s, 1m30s, 500ms)'],
  [
    ANALYSIS_PATTERN,
    'is not a pattern: pairs:A-B,C-D (or A->B), shift:K, permutation[:SEED], all-to-all, incast:HOST or bisection',
  ],
  [CURSOR_PATTERN, 'is not a cursor this API gives out: pass the `next` of a page as it is'],
]);
