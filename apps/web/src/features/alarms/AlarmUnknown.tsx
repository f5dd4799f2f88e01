import type { Alarm } from '@fabscope/contracts';
import { unknownNote } from './alarm-unknown.ts';

/** An active alarm whose value turned unknown: it stays raised, and says since when and why. */
export function AlarmUnknown({ unknown, nowMs }: { unknown: Alarm['unknown']; nowMs?: number }) {
  const note = unknownNote(unknown, nowMs);
  if (note === null) return null;
  return (
    <p className="alarm-unknown small" role="status">
      <span className="chip chip-stale">value unknown</span> {note}
    </p>
  );
}
