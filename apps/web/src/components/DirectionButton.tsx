import { memo } from 'react';
import { formatDirection } from '../lib/format.ts';

/**
 * A link direction written as everywhere (`edge1/4 → core2/1`), a button that opens it. Memoized:
 * the ranking's and the lights' rows re-render on every tick, their directions seldom change.
 */
export const DirectionButton = memo(function DirectionButton({
  id,
  onOpen,
  title,
}: {
  id: string;
  onOpen: (id: string) => void;
  /** What the click does: "Open its history", "Its flows and history". */
  title?: string;
}) {
  return (
    <button type="button" className="link-button" onClick={() => onOpen(id)} title={title}>
      {formatDirection(id)}
    </button>
  );
});
