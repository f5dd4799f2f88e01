import type { ReactNode } from 'react';

/** A right-aligned column header for a numeric column. */
export function NumHeader({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <th scope="col" className="num" title={title}>
      {children}
    </th>
  );
}
