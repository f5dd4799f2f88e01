import { PORT_TOTAL_FIELDS, type PortTotalField } from '@fabscope/contracts';
import { portKey } from '../../lib/port-rates.ts';
import type { MetricsStore } from '../../store/types.ts';

type Totals = { time: string; counters: Record<PortTotalField, number | null> };

/** Why a port's totals are unknown when the store keeps rates only. */
export const TOTALS_NOT_KEPT = 'this store answers rates only (Prometheus rate()): totals are not read';
export const TOTALS_NEVER_READ = 'the port has not been read since the server started';

/**
 * A node's ports' counters as last read (cumulative since the last clear), as GET /port answers them: the
 * totals, or null and the reason.
 */
export function portTotalsReader(
  store: Pick<MetricsStore, 'portTotals'>,
  guid: string,
): (port: number) => { totals: Totals | null; totalsUnknown?: string } {
  return (port) => {
    if (!store.portTotals) return { totals: null, totalsUnknown: TOTALS_NOT_KEPT };
    const read = store.portTotals([portKey(guid, port)])[0];
    if (!read) return { totals: null, totalsUnknown: TOTALS_NEVER_READ };
    const counters = Object.fromEntries(
      PORT_TOTAL_FIELDS.map((f) => [f, read.values[f] ?? null]),
    ) as Totals['counters'];
    return { totals: { time: new Date(read.timeMs).toISOString(), counters } };
  };
}
