import { utilizationColor } from '../lib/colors.ts';
import { formatPercent } from '../lib/format.ts';

/** A utilization cell: the percentage beside a swatch of its colour (grey when unknown). */
export function UtilCell({ value }: { value: number | null }) {
  return (
    <td className="num">
      <span className="util-chip">
        <span className="swatch" style={{ background: utilizationColor(value) }} aria-hidden="true" />
        {formatPercent(value)}
      </span>
    </td>
  );
}
