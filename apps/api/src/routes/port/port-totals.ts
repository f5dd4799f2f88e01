import {
  type PhysicalPortState,
  PORT_TOTAL_FIELDS,
  type PortTotalField,
  physicalStateName,
} from '@fabscope/contracts';
import { portKey } from '../../lib/port-rates.ts';
import type { MetricsStore, PortTotals } from '../../store/types.ts';

type Totals = { time: string; counters: Record<PortTotalField, number | null> };

/** What GET /port says of a port from the store's last reading of it. */
export interface PortReadingFields {
  totals: Totals | null;
  totalsUnknown?: string;
  physicalState: PhysicalPortState | null;
  physicalStateUnknown?: string;
}

/** Why a port's totals are unknown when the store keeps no readings. */
export const TOTALS_NOT_KEPT = 'this store keeps no readings of the ports: totals are not read';
export const TOTALS_NEVER_READ = 'the port has not been read since the server started';
export const TOTALS_NOT_IN_TSDB = 'the store holds no fresh sample of the port’s counters';
export const PHYSICAL_STATE_NOT_READ =
  'the source reports no fresh physical state for the port: only the InfiniBand sweep reads PortInfo';

/**
 * A node's ports' counters as last read (cumulative since the last clear) and their physical state, as GET
 * /port answers them: each known, or null and the reason. One read of the store for all of them.
 */
export async function portReadings(
  store: Pick<MetricsStore, 'portTotals' | 'kind' | 'liveSource'>,
  guid: string,
  ports: readonly number[],
  signal?: AbortSignal,
): Promise<PortReadingFields[]> {
  const unknown = (totalsWhy: string, physicalWhy: string) =>
    ports.map(() => ({
      totals: null,
      totalsUnknown: totalsWhy,
      physicalState: null,
      physicalStateUnknown: physicalWhy,
    }));
  if (!store.portTotals) return unknown(TOTALS_NOT_KEPT, PHYSICAL_STATE_NOT_READ);
  let reads: (PortTotals | null)[];
  try {
    reads = await store.portTotals(
      ports.map((p) => portKey(guid, p)),
      signal,
    );
  } catch (error) {
    // The rates on the page stand without them: the readings are unknown, and why.
    const why = `the store did not answer: ${error instanceof Error ? error.message : String(error)}`;
    return unknown(why, why);
  }
  const tsdb = store.kind === 'prometheus' && store.liveSource !== 'collectors';
  const neverRead = tsdb ? TOTALS_NOT_IN_TSDB : TOTALS_NEVER_READ;
  return ports.map((_, i) => ({ ...totalsOf(reads[i] ?? null, neverRead), ...physicalOf(reads[i] ?? null) }));
}

function totalsOf(
  read: PortTotals | null,
  neverRead: string,
): Pick<PortReadingFields, 'totals' | 'totalsUnknown'> {
  if (!read || Object.keys(read.values).length === 0) return { totals: null, totalsUnknown: neverRead };
  const counters = Object.fromEntries(
    PORT_TOTAL_FIELDS.map((f) => [f, read.values[f] ?? null]),
  ) as Totals['counters'];
  return { totals: { time: new Date(read.timeMs).toISOString(), counters } };
}

function physicalOf(
  read: PortTotals | null,
): Pick<PortReadingFields, 'physicalState' | 'physicalStateUnknown'> {
  const code = read?.physicalState?.code;
  if (code === undefined) return { physicalState: null, physicalStateUnknown: PHYSICAL_STATE_NOT_READ };
  const name = physicalStateName(code);
  return name === null
    ? { physicalState: null, physicalStateUnknown: `PortPhysicalState ${code} is none IBA defines (1..7)` }
    : { physicalState: name };
}
