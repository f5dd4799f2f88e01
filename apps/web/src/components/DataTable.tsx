import type { ReactNode } from 'react';
import { TableScroll } from './TableScroll.tsx';

/** A column heading: its text, or one with what it means on hover, numeric (right-aligned) from `num`. */
interface Heading {
  label: ReactNode;
  num?: boolean;
  title?: string | undefined;
}
/** False leaves the column out. */
export type Column = ReactNode | Heading;

/** A right-aligned heading for a numeric column, with what it means on hover. */
export const num = (label: ReactNode, title?: string): Column => ({ label, num: true, title });

function isHeading(column: Column): column is Heading {
  return typeof column === 'object' && column !== null && 'label' in column;
}

interface DataTableProps {
  /** The scroll region's name; also the caption, read by assistive technology only, unless `caption`. */
  label: string;
  /** A caption shown above the table. */
  caption?: ReactNode;
  /** The caption for assistive technology only, when not `label`. */
  hiddenCaption?: string;
  /** Default `data-table`; null for none. */
  className?: string | null;
  columns: readonly Column[];
  /** The body's rows. */
  children: ReactNode;
  'data-highlight'?: string;
}

/** A table that scrolls sideways in its panel: a caption, one header row, the rows given. */
export function DataTable({
  label,
  caption,
  hiddenCaption = label,
  className = 'data-table',
  columns,
  children,
  ...data
}: DataTableProps) {
  return (
    <TableScroll label={label}>
      <table className={className ?? undefined} {...data}>
        {caption === undefined ? (
          <caption className="visually-hidden">{hiddenCaption}</caption>
        ) : (
          <caption>{caption}</caption>
        )}
        <thead>
          <tr>
            {columns.map((column, i) => {
              if (column === false) return null;
              const heading = isHeading(column) ? column : { label: column };
              return (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: the headings never move
                  key={i}
                  scope="col"
                  className={heading.num ? 'num' : undefined}
                  title={heading.title}
                >
                  {heading.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}
