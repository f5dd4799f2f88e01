import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: string;
}

interface TabsProps<K extends string> {
  label: string;
  tabs: readonly TabDef<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The selected tab's content; the others are not rendered (and fetch nothing). */
  children: ReactNode;
}

/** WAI-ARIA tabs: arrow keys move between tabs, only the selected panel is mounted. */
export function Tabs<K extends string>({ label, tabs, selected, onSelect, children }: TabsProps<K>) {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const keyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.key);
    refs.current.get(next.key)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((t, i) => (
          <button
            key={t.key}
            ref={(el) => {
              if (el) refs.current.set(t.key, el);
              else refs.current.delete(t.key);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.key}`}
            aria-selected={t.key === selected}
            aria-controls={`${base}-panel`}
            tabIndex={t.key === selected ? 0 : -1}
            className={`tab ${t.key === selected ? 'tab-selected' : ''}`}
            onClick={() => onSelect(t.key)}
            onKeyDown={(e) => keyDown(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-tab-${selected}`}
        className="tab-panel"
      >
        {children}
      </div>
    </div>
  );
}
