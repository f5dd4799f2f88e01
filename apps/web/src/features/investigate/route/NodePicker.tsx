import { memo, useEffect, useId, useMemo, useState } from 'react';
import { SelectField } from '../../../components/Field.tsx';
import { formatCount } from '../../../lib/format.ts';
import { SELECT_LIMIT } from '../../../lib/route.ts';
import { matchNames } from './nameSearch.ts';

interface NodePickerProps {
  label: string;
  value: string | null;
  /** The names offered, in display order. */
  options: readonly string[];
  onChange: (value: string | null) => void;
  placeholder?: string;
}

/** Picks one name: a select for a few hundred, a searchable combobox (a page of matches) beyond. */
export const NodePicker = memo(function NodePicker({
  label,
  value,
  options,
  onChange,
  placeholder = 'choose…',
}: NodePickerProps) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);

  if (options.length <= SELECT_LIMIT) {
    return (
      <SelectField label={label} value={value ?? ''} values={options} onChange={(v) => onChange(v || null)}>
        <option value="">{placeholder}</option>
        {value !== null && !options.includes(value) && <option value={value}>{value}</option>}
      </SelectField>
    );
  }
  return (
    <NodeCombobox
      id={id}
      label={label}
      value={value}
      options={options}
      onChange={onChange}
      draft={draft}
      setDraft={setDraft}
    />
  );
});

/** Options rendered at once: enough to scroll through, few enough to stay fast on any fabric. */
const SHOWN = 50;

/** A WAI-ARIA list-autocomplete combobox; a typed existing name commits on Enter or blur. */
function NodeCombobox({
  id,
  label,
  value,
  options,
  onChange,
  draft,
  setDraft,
}: Omit<NodePickerProps, 'placeholder'> & { id: string; draft: string; setDraft: (text: string) => void }) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { matches, total } = useMemo(() => matchNames(options, draft, SHOWN), [options, draft]);
  const pick = (name: string | null) => {
    setOpen(false);
    setDraft(name ?? '');
    if (name !== value) onChange(name);
  };
  const commitTyped = () => {
    const typed = draft.trim();
    if (typed === '') pick(null);
    else if (options.includes(typed)) pick(typed);
    else setOpen(false);
  };
  const activeId = open && matches[active] !== undefined ? `${listId}-${active}` : undefined;
  return (
    <span className="combobox">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        value={draft}
        placeholder={`${formatCount(options.length)} hosts: type a name`}
        autoComplete="off"
        onChange={(e) => {
          setDraft(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => commitTyped()}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, matches.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            const chosen = open ? matches[active] : undefined;
            if (chosen !== undefined) pick(chosen);
            else commitTyped();
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {open && (
        <div className="combobox-list">
          <div id={listId} role="listbox" aria-label={`${label} host`}>
            {matches.map((name, i) => (
              <div
                key={name}
                id={`${listId}-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className={i === active ? 'is-active' : ''}
                // Pick before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(name);
                }}
              >
                {name}
              </div>
            ))}
          </div>
          {(matches.length === 0 || total > matches.length) && (
            <p className="muted small" aria-live="polite">
              {matches.length === 0
                ? `no host matches “${draft}”`
                : `${formatCount(total - matches.length)} more: type more of the name`}
            </p>
          )}
        </div>
      )}
    </span>
  );
}
