import { useEffect, useId, useState } from 'react';
import { SELECT_LIMIT } from '../lib/route.ts';

interface NodePickerProps {
  label: string;
  value: string | null;
  /** The names offered, in display order. */
  options: readonly string[];
  onChange: (value: string | null) => void;
  placeholder?: string;
}

/**
 * Picks one name: a select for a few hundred choices, a text input with a datalist for big
 * fabrics (typing filters, Enter or leaving the field commits; a known name commits at once).
 */
export function NodePicker({ label, value, options, onChange, placeholder = 'choose…' }: NodePickerProps) {
  const id = useId();
  const listId = useId();
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);

  if (options.length <= SELECT_LIMIT) {
    return (
      <>
        <label htmlFor={id}>{label}</label>
        <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
          <option value="">{placeholder}</option>
          {value !== null && !options.includes(value) && <option value={value}>{value}</option>}
          {options.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </>
    );
  }
  const commit = (text: string) => {
    const next = text.trim() || null;
    if (next !== value) onChange(next);
  };
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        list={listId}
        value={draft}
        placeholder={`${options.length.toLocaleString('en')} hosts: type a name`}
        autoComplete="off"
        onChange={(e) => {
          setDraft(e.target.value);
          if (options.includes(e.target.value)) commit(e.target.value);
        }}
        onBlur={() => commit(draft)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(draft);
        }}
      />
      <datalist id={listId}>
        {options.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}
