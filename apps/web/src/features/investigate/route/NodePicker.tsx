import { memo, useEffect, useMemo, useState } from 'react';
import { Combobox } from '../../../components/Combobox.tsx';
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

/** The host picker on big fabrics: the shared combobox over the names, matched here; a typed existing name commits. */
function NodeCombobox({
  label,
  value,
  options,
  onChange,
  draft,
  setDraft,
}: Omit<NodePickerProps, 'placeholder'> & { draft: string; setDraft: (text: string) => void }) {
  const { matches, total } = useMemo(() => matchNames(options, draft, SHOWN), [options, draft]);
  const shown = useMemo(() => matches.map((name) => ({ value: name })), [matches]);
  const pick = (name: string | null) => {
    setDraft(name ?? '');
    if (name !== value) onChange(name);
  };
  return (
    <Combobox
      label={label}
      listLabel={`${label} host`}
      draft={draft}
      setDraft={setDraft}
      options={shown}
      total={total}
      onPick={pick}
      onCommitTyped={(typed) => {
        if (typed === '') pick(null);
        else if (options.includes(typed)) pick(typed);
      }}
      commitOnBlur
      placeholder={`${formatCount(options.length)} hosts: type a name`}
      noneText={(text) => `no host matches “${text}”`}
    />
  );
}
