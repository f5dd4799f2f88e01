import { memo, useEffect, useState } from 'react';
import { formatDateTimeField, parseDateTimeField } from '../../lib/format.ts';

interface DateTimeFieldProps {
  id: string;
  /** The instant shown (ms), or null when none is chosen. */
  ms: number | null;
  /** Called with each whole instant typed (null when the field is emptied). */
  onChange: (ms: number | null) => void;
  /** Extra description (e.g. the zone), by id. */
  describedBy?: string;
}

/** A date-time text field, 24-hour in the browser's zone: `datetime-local` follows the browser's locale. */
export const DateTimeField = memo(function DateTimeField({
  id,
  ms,
  onChange,
  describedBy,
}: DateTimeFieldProps) {
  const [text, setText] = useState(ms === null ? '' : formatDateTimeField(ms));
  // A new instant from outside (a button, the URL) replaces what was typed.
  useEffect(() => {
    setText((current) =>
      ms === null ? (parseDateTimeField(current) === null ? current : '') : formatDateTimeField(ms),
    );
  }, [ms]);
  const invalid = text.trim() !== '' && parseDateTimeField(text) === null;
  return (
    <input
      id={id}
      type="text"
      className="datetime-field"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      placeholder="YYYY-MM-DD hh:mm:ss"
      size={19}
      value={text}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      title="Date and 24-hour time, e.g. 2026-11-22 14:05:00"
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value.trim() === '') onChange(null);
        else {
          const parsed = parseDateTimeField(e.target.value);
          if (parsed !== null) onChange(parsed);
        }
      }}
    />
  );
});
