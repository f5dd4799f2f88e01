import type { CategoryName, FabricType, LinkDirectionState, PortReply } from '@fabscope/contracts';
import { figuresOf, PORT_FIGURE_NAMES, type PortFigure } from '@fabscope/contracts/counter-names';
import { CATEGORY_NAMES } from '@fabscope/contracts/names';

/** A port's page as perfquery / opapmaquery print it: each counter the fabric kind has, its rate and total. */

export type PortEntry = PortReply['ports'][number];

export interface FigureRow {
  figure: PortFigure;
  /** As the fabric's own tool prints it: PortXmitData, Xmit Data, ifHCOutOctets. */
  name: string;
  kind: 'bytes' | 'count' | 'gauge';
  /** Per second (a gauge: its value); null when unknown, with `rateUnknown` saying why. */
  rate: number | null;
  rateUnknown: string | null;
  /** Since the last clear; null when unknown, with `totalUnknown` saying why (a gauge has none). */
  total: number | null;
  totalUnknown: string | null;
}

function directionOf(port: PortEntry, figure: PortFigure): LinkDirectionState | null {
  const side = PORT_FIGURE_NAMES[figure].side;
  // A link counter is the worse end's, the same in both directions' `errors`.
  return side === 'receive' ? port.in : (port.out ?? port.in);
}

function rateOf(direction: LinkDirectionState, figure: PortFigure): number | null {
  switch (figure) {
    case 'transmitBytes':
    case 'receiveBytes':
      return direction.bytesPerSecond;
    case 'transmitPackets':
    case 'receivePackets':
      return direction.packetsPerSecond;
    case 'transmitWait':
      return direction.transmitWaitTicksPerSecond;
    default:
      return direction.errors[figure] ?? null;
  }
}

export const NOT_REPORTED = 'not reported by this port’s source';

function unknownRate(direction: LinkDirectionState | null): string {
  if (direction === null) return 'no live reading of this port yet';
  if (direction.stale) return 'not read in the latest sampling period (stale)';
  return NOT_REPORTED;
}

/** A row its source reports neither as a rate nor as a total: named once under the table, not as a row of dashes. */
export function notReported(row: FigureRow): boolean {
  return row.rateUnknown === NOT_REPORTED && (row.kind === 'gauge' || row.totalUnknown === NOT_REPORTED);
}

/** The rows of a port's counters table: only the figures its fabric kind has, never a made-up 0. */
export function figureRows(port: PortEntry): FigureRow[] {
  return figuresOf(port.fabricType).map(({ figure, name }) => {
    const spec = PORT_FIGURE_NAMES[figure];
    const direction = directionOf(port, figure);
    const rate = direction ? rateOf(direction, figure) : null;
    const gauge = spec.gauge === true;
    const total = gauge ? null : ((port.totals?.counters as Record<string, number | null>)?.[figure] ?? null);
    return {
      figure,
      name,
      kind: gauge ? 'gauge' : spec.bytes ? 'bytes' : 'count',
      rate,
      rateUnknown: rate === null ? unknownRate(direction) : null,
      total,
      totalUnknown: gauge
        ? null
        : total !== null
          ? null
          : port.totals === null
            ? (port.totalsUnknown ?? 'not read')
            : NOT_REPORTED,
    };
  });
}

/** opafm's PM categories a fabric kind has: InfiniBand has no SMA-congestion or bubble counters, Ethernet none. */
export function categoriesOf(kind: FabricType): readonly CategoryName[] {
  if (kind === 'ethernet') return [];
  if (kind === 'infiniband') return CATEGORY_NAMES.filter((c) => c !== 'smaCongestion' && c !== 'bubble');
  return CATEGORY_NAMES;
}

/** Speed and width as the fabric's tools print them; an Omni-Path link's width less its downgraded lanes. */
export function speedWidthText(port: PortEntry): string {
  const rate = `${Number(port.rateGbps.toFixed(1))} Gb/s`;
  if (port.widthSpeed) return `${port.widthSpeed} (${rate})`;
  if (port.fabricType === 'ethernet') return `${Number(port.rateGbps.toFixed(1))}GbE`;
  if (port.fabricType === 'omnipath') {
    const down = port.out?.errors.linkWidthDowngradeLanes ?? port.in?.errors.linkWidthDowngradeLanes ?? null;
    const lane = Number((port.rateGbps / 4).toFixed(2));
    const width = down === null || down === 0 ? '4X' : `${Math.max(0, 4 - down)}X of 4X`;
    return `${width} × ${lane} Gb/s (${rate})`;
  }
  return `${rate} (width and speed not in the topology)`;
}

/**
 * Port state as PortInfo names it (ifOperStatus on Ethernet), and the physical state as the source read it
 * (ibportstate's names), never inferred from the port state: unknown says why.
 */
export function stateTexts(port: PortEntry): { state: string; physical: string } {
  const physical = port.physicalState ?? `— (${port.physicalStateUnknown ?? 'not reported'})`;
  if (port.fabricType === 'ethernet') {
    const oper = port.linkUp === null ? 'not reported' : port.linkUp ? 'up' : 'down';
    return { state: `ifOperStatus ${oper}`, physical };
  }
  if (port.linkUp === null) return { state: '— (not reported)', physical };
  return { state: port.linkUp ? 'Active' : 'Down', physical };
}

const PREFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

/** A count or a byte total SI-scaled with three significant digits: 5.00 TB, 12.3 k, 999. */
export function formatTotal(value: number | null, unit: '' | 'B'): string {
  if (value === null || !Number.isFinite(value)) return '—';
  let exponent = Math.min(PREFIXES.length - 1, value < 1000 ? 0 : Math.floor(Math.log10(value) / 3));
  // Rounding can carry into the next prefix (999.9 k is 1.00 M).
  if (
    exponent > 0 &&
    exponent < PREFIXES.length - 1 &&
    Number((value / 1000 ** exponent).toPrecision(3)) >= 1000
  )
    exponent++;
  const scaled = value / 1000 ** exponent;
  const digits = exponent === 0 ? String(Math.round(scaled)) : scaled.toPrecision(3);
  const symbol = `${PREFIXES[exponent]}${unit}`;
  return symbol ? `${digits} ${symbol}` : digits;
}
