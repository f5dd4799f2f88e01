import { memo } from 'react';
import { formatDirection } from '../lib/format.ts';

/** A link direction as a button that opens it; memoized, as ranking rows re-render every tick. */
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
