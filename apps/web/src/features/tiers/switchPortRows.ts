import type { PortReply } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { CompactSnapshot } from '../../api/types.ts';
import type { SwitchPort } from './podMatrix.ts';

/** One switch port as the switch view lists it, from the live stream or from GET /port; null is unknown. */
export interface SwitchPortRow {
  port: number;
  peer: string;
  peerPort: number;
  /** The direction leaving the switch through the port (`node/port->node/port`), or its channel. */
  out: string | number;
  outUtil: number | null;
  inUtil: number | null;
  outRate: number | null;
  inRate: number | null;
  /** XmitWait share of time of the direction leaving the port. */
  wait: number | null;
  /** Errors per second on the cable, both directions together; null when their counters are unknown. */
  errors: number | null;
  /** false when reported down, true when up, null when not reported. */
  linkUp: boolean | null;
}

export const SWITCH_PORT_SORTS = [
  'port',
  'peer',
  'outUtil',
  'inUtil',
  'outRate',
  'inRate',
  'wait',
  'errors',
] as const;
export type SwitchPortSort = (typeof SWITCH_PORT_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

const known = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/**
 * The rows ordered by one column: unknown values last whichever the order (never ranked as 0), ties by
 * port number; `peer` in natural order (core1/2 before core1/10).
 */
export function sortSwitchPorts(
  rows: readonly SwitchPortRow[],
  key: SwitchPortSort,
  order: SortOrder,
): SwitchPortRow[] {
  const sign = order === 'asc' ? 1 : -1;
  const byPort = (a: SwitchPortRow, b: SwitchPortRow) => a.port - b.port;
  if (key === 'port') return [...rows].sort((a, b) => sign * byPort(a, b));
  if (key === 'peer')
    return [...rows].sort(
      (a, b) => sign * naturalCompare(`${a.peer}/${a.peerPort}`, `${b.peer}/${b.peerPort}`) || byPort(a, b),
    );
  return [...rows].sort((a, b) => {
    const va = known(a[key]);
    const vb = known(b[key]);
    if (va === null || vb === null) return va === vb ? byPort(a, b) : va === null ? 1 : -1;
    return sign * (va - vb) || byPort(a, b);
  });
}

/** Where a compact message's per-channel figures are read from (decoded: NaN is unknown). */
export type PortSnapshot = Pick<
  CompactSnapshot,
  'utilization' | 'bytesPerSecond' | 'waitFraction' | 'errors' | 'errorsUnknown' | 'linkDown'
>;

/** A switch's ports from the live stream's arrays (the drill-downs: no request per port). */
export function rowsFromSnapshot(
  ports: readonly SwitchPort[],
  snapshot: PortSnapshot | null,
): SwitchPortRow[] {
  const errorsOf = new Map<number, number>();
  for (const [channel, perSecond] of snapshot?.errors ?? []) errorsOf.set(channel, perSecond);
  const down = new Set(snapshot?.linkDown ?? []);
  // The stream lists only channels with errors: an unlisted one is error-free only when every channel is known.
  const cableErrors = (p: SwitchPort): number | null => {
    const a = errorsOf.get(p.out);
    const b = errorsOf.get(p.in);
    if (a === undefined && b === undefined) return snapshot && snapshot.errorsUnknown === 0 ? 0 : null;
    return (a ?? 0) + (b ?? 0);
  };
  return ports.map((p) => ({
    port: p.port,
    peer: p.peer,
    peerPort: p.peerPort,
    out: p.out,
    outUtil: known(snapshot?.utilization[p.out]),
    inUtil: known(snapshot?.utilization[p.in]),
    outRate: known(snapshot?.bytesPerSecond[p.out]),
    inRate: known(snapshot?.bytesPerSecond[p.in]),
    wait: known(snapshot?.waitFraction[p.out]),
    errors: snapshot ? cableErrors(p) : null,
    // The stream names the channels reported down; the others are up or not reported.
    linkUp: down.has(p.out) || down.has(p.in) ? false : null,
  }));
}

/** A node's ports from GET /port (the switch page). */
export function rowsFromPortReply(ports: PortReply['ports']): SwitchPortRow[] {
  return ports.map((p) => {
    const e = [p.out?.errorsPerSecond, p.in?.errorsPerSecond].map(known);
    return {
      port: p.port,
      peer: p.neighbour.node,
      peerPort: p.neighbour.port,
      out: p.out?.id ?? `${p.linkId}`,
      outUtil: known(p.out?.utilization),
      inUtil: known(p.in?.utilization),
      outRate: known(p.out?.bytesPerSecond),
      inRate: known(p.in?.bytesPerSecond),
      wait: known(p.out?.transmitWaitFraction),
      errors: e[0] === null && e[1] === null ? null : (e[0] ?? 0) + (e[1] ?? 0),
      linkUp: p.linkUp,
    };
  });
}
