import { type ReactNode, useId } from 'react';

interface PanelProps {
  title: string;
  /** Extra controls shown at the right of the title bar. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled dashboard panel; the title names the region for assistive technology. */
export function Panel({ title, actions, className, children }: PanelProps) {
  const id = useId();
  return (
    <section className={`panel ${className ?? ''}`} aria-labelledby={id}>
      <header className="panel-header">
        <h2 id={id}>{title}</h2>
        {actions && <div className="panel-actions">{actions}</div>}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
