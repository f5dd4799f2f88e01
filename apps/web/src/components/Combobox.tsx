import { type ReactNode, useId, useState } from 'react';
import { formatCount } from '../lib/format.ts';

export interface ComboboxOption {
  /** What picking the option chooses (a name, `node/port`). */
  value: string;
  /** How the option reads; the value when absent. */
  label?: ReactNode;
}

interface ComboboxProps {
  label: string;
  /** The listbox's accessible name. */
  listLabel: string;
  draft: string;
  setDraft: (text: string) => void;
  /** The matches of the draft shown, best first. */
  options: readonly ComboboxOption[];
  /** How many matched, of which `options` are the first; null while not known (a question on its way). */
  total: number | null;
  onPick: (value: string) => void;
  /** Enter or blur with no option chosen: the typed text as it is. */
  onCommitTyped: (text: string) => void;
  placeholder?: string;
  /** What the list says when nothing matches. */
  noneText: (draft: string) => string;
  /** Leaving the field commits what was typed (a picker), or only closes the list (a search). */
  commitOnBlur?: boolean;
}

/**
 * A WAI-ARIA list-autocomplete combobox: the host pickers' and Find's. The caller matches (locally or
 * by asking the API) and says how many more matched than it shows.
 */
export function Combobox({
  label,
  listLabel,
  draft,
  setDraft,
  options,
  total,
  onPick,
  onCommitTyped,
  placeholder,
  noneText,
  commitOnBlur = false,
}: ComboboxProps) {
  const id = useId();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const pick = (value: string) => {
    setOpen(false);
    setDraft(value);
    onPick(value);
  };
  const commitTyped = () => {
    setOpen(false);
    onCommitTyped(draft.trim());
  };
  const activeId = open && options[active] !== undefined ? `${listId}-${active}` : undefined;
  return (
    <span className="combobox">
      <label htmlFor={id}>{label}</label>
      {/* The list hangs from the field, aligned with it (not with the label beside it). */}
      <span className="combobox-field">
        <input
          id={id}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          value={draft}
          placeholder={placeholder}
          autoComplete="off"
          onChange={(e) => {
            setDraft(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => (commitOnBlur ? commitTyped() : setOpen(false))}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
              setActive((a) => Math.min(a + 1, options.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              const chosen = open ? options[active] : undefined;
              if (chosen !== undefined) pick(chosen.value);
              else commitTyped();
            } else if (e.key === 'Escape') {
              setOpen(false);
            }
          }}
        />
        {open && (
          <div className="combobox-list">
            <div id={listId} role="listbox" aria-label={listLabel}>
              {options.map((option, i) => (
                <div
                  key={option.value}
                  id={`${listId}-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  className={i === active ? 'is-active' : ''}
                  // Pick before the input's blur closes the list.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(option.value);
                  }}
                >
                  {option.label ?? option.value}
                </div>
              ))}
            </div>
            {total !== null && (options.length === 0 || total > options.length) && (
              <p className="muted small" aria-live="polite">
                {options.length === 0
                  ? noneText(draft)
                  : `${formatCount(total - options.length)} more: type more of the name`}
              </p>
            )}
          </div>
        )}
      </span>
    </span>
  );
}
