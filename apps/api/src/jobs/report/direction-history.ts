import type { TimeRange } from '../../lib/time-params.ts';
import type { LinkColumn, LinkSeries, TimeQueries } from '../../store/time-queries.ts';

/** Series as columns (NaN unknown), for stores that answer only with points (Prometheus, several drawings). */
export function columnsOfSeries(series: readonly LinkSeries[]): LinkColumn[] {
  return series.map(({ id, points }) => {
    const n = points.length;
    const column = {
      id,
      timesMs: new Float64Array(n),
      utilization: new Float64Array(n),
      transmitWaitFraction: new Float64Array(n),
    };
    points.forEach((p, i) => {
      column.timesMs[i] = p.timeMs;
      column.utilization[i] = p.utilization ?? Number.NaN;
      column.transmitWaitFraction[i] = p.transmitWaitFraction ?? Number.NaN;
    });
    return column;
  });
}

/** The history of `ids` over `range`, read once, as columns: the store's own when it has them. */
export async function directionHistory(
  queries: Pick<TimeQueries, 'linkRange' | 'linkColumns'>,
  ids: readonly string[],
  range: TimeRange,
  signal?: AbortSignal,
): Promise<LinkColumn[]> {
  if (ids.length === 0) return [];
  if (queries.linkColumns) return queries.linkColumns(ids, range, signal);
  return columnsOfSeries(await queries.linkRange(ids, range, signal));
}
