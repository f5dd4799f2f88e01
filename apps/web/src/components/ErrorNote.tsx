interface ErrorNoteProps {
  message: string;
  onRetry?: () => void;
}

/** A failure shown in words, with a retry when one makes sense. */
export function ErrorNote({ message, onRetry }: ErrorNoteProps) {
  return (
    <div className="error-note" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
