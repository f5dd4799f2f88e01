import type { LinkDirectionState, Summary } from '@fabscope/contracts';
import { useMemo } from 'react';
import { TableScroll } from '../../components/TableScroll.tsx';
import { formatCount } from '../../lib/format.ts';
import { congestedCounts, histogramRows } from './beforeAfter.ts';

interface Side {
  links: readonly LinkDirectionState[];
  summary: Summary;
}

const signed = (before: number | null, after: number | null) => {
  if (before === null || after === null) return '—';
  const d = after - before;
  return d > 0 ? `+${formatCount(d)}` : d < 0 ? `−${formatCount(-d)}` : '0';
};

/** Both sides counted: directions over the congestion threshold, and the utilization histogram, in directions. */
export function BeforeAfterSides({ before, after }: { before: Side | null; after: Side | null }) {
  const congestedBefore = useMemo(() => (before ? congestedCounts(before.links) : null), [before]);
  const congestedAfter = useMemo(() => (after ? congestedCounts(after.links) : null), [after]);
  const rows = histogramRows(before?.summary.histogram ?? null, after?.summary.histogram ?? null);
  const most = Math.max(1, ...rows.flatMap((r) => [r.before ?? 0, r.after ?? 0]));
  const congested = (['isl', 'host'] as const).map((kind) => ({
    kind,
    before: congestedBefore ? congestedBefore[kind] : null,
    after: congestedAfter ? congestedAfter[kind] : null,
  }));
  const unknown = Math.max(congestedBefore?.unknown ?? 0, congestedAfter?.unknown ?? 0);
  return (
    <TableScroll label="Link directions before and after">
      <table className="compare compare-sides" aria-label="Link directions before and after">
        <caption className="muted small">link directions, counted at each instant</caption>
        <thead>
          <tr>
            <th />
            <th className="num">before</th>
            <th className="num">after</th>
            <th className="num">change</th>
          </tr>
        </thead>
        <tbody>
          {congested.map((c) => (
            <tr key={c.kind} data-congested={c.kind}>
              <th scope="row">
                {c.kind === 'isl' ? 'ISL' : 'host link'} directions over the congestion threshold
              </th>
              <td className="num">{c.before === null ? '…' : formatCount(c.before)}</td>
              <td className="num">{c.after === null ? '…' : formatCount(c.after)}</td>
              <td className="num">{signed(c.before, c.after)}</td>
            </tr>
          ))}
          {rows.map((r) => (
            <tr key={r.label} data-bucket={r.label}>
              <th scope="row" className="small">
                utilization {r.label}
              </th>
              <BarCell value={r.before} most={most} />
              <BarCell value={r.after} most={most} />
              <td className="num">{signed(r.before, r.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {unknown > 0 && (
        <p className="hint">
          {formatCount(unknown)} direction(s) with congestion unknown at an instant, not counted.
        </p>
      )}
    </TableScroll>
  );
}

/** A count with a bar behind it, the same scale on both sides: the histogram read across. */
function BarCell({ value, most }: { value: number | null; most: number }) {
  if (value === null) return <td className="num">…</td>;
  const width = `${Math.round((value / most) * 100)}%`;
  return (
    <td className="num compare-bar-cell">
      <span className="compare-bar" style={{ width }} aria-hidden="true" />
      <span className="compare-bar-value">{formatCount(value)}</span>
    </td>
  );
}
