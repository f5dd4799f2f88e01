import type { TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { onePer } from '../../lib/onePer.ts';

/** The values of a heatmap cell's two directions, over its trunked channels. */

/** Aggregate of one direction of a cell over its trunks. */
export interface DirectionValue {
  /** Highest utilization among known trunks (the colour), null when none is known. */
  max: number | null;
  mean: number | null;
  /** Sum of known bytes/s over the trunks. */
  bytesPerSecond: number | null;
  /** Trunks in the cell, and how many of them are unknown (stale). */
  count: number;
  unknown: number;
}

export function directionValue(
  channels: readonly number[],
  utilization: ArrayLike<number | null>,
  bytesPerSecond: ArrayLike<number | null>,
): DirectionValue {
  let max: number | null = null;
  let sum = 0;
  let known = 0;
  let bytes: number | null = null;
  for (const c of channels) {
    const u = utilization[c];
    if (typeof u === 'number' && Number.isFinite(u)) {
      max = max === null ? u : Math.max(max, u);
      sum += u;
      known++;
    }
    const b = bytesPerSecond[c];
    if (typeof b === 'number' && Number.isFinite(b)) bytes = (bytes ?? 0) + b;
  }
  return {
    max,
    mean: known > 0 ? sum / known : null,
    bytesPerSecond: bytes,
    count: channels.length,
    unknown: channels.length - known,
  };
}

/** Highest finite utilization among `channels`, or null; allocation-free for the per-tick pass. */
export function maxUtilization(
  channels: readonly number[],
  utilization: ArrayLike<number | null>,
): number | null {
  let max: number | null = null;
  for (const c of channels) {
    const u = utilization[c];
    if (typeof u === 'number' && Number.isFinite(u) && (max === null || u > max)) max = u;
  }
  return max;
}

/** A block's cells as lists of channels per half, row-major; null for an empty cell. */
export interface BlockChannels {
  up: (readonly number[] | null)[];
  down: (readonly number[] | null)[];
}

const channelLists = onePer(
  (matrix: TwoTierMatrix): Record<Block, BlockChannels> => ({
    isl: { up: matrix.isl.map((c) => c?.up ?? null), down: matrix.isl.map((c) => c?.down ?? null) },
    host: {
      up: matrix.hosts.map((c) => (c ? [c.up] : null)),
      down: matrix.hosts.map((c) => (c ? [c.down] : null)),
    },
  }),
);

/** Every cell's channels per block, made once per matrix so a tick allocates nothing per cell. */
export function blockChannels(matrix: TwoTierMatrix, block: Block): BlockChannels {
  return channelLists(matrix)[block];
}

export type Block = 'isl' | 'host';
export type Half = 'up' | 'down';

export interface HotCell {
  block: Block;
  row: number;
  col: number;
  half: Half;
  utilization: number;
  /** e.g. "edge1 → core2" or "host25 → edge2/1". */
  label: string;
}

/** Up- and down-channels of a cell of either block, or null for an empty cell. */
export function cellChannels(
  matrix: TwoTierMatrix,
  block: Block,
  row: number,
  col: number,
): { up: number[]; down: number[] } | null {
  if (block === 'isl') {
    const cell = matrix.isl[row * matrix.cores.length + col];
    return cell ? { up: cell.up, down: cell.down } : null;
  }
  const cell = matrix.hosts[row * matrix.hostPorts.length + col];
  return cell ? { up: [cell.up], down: [cell.down] } : null;
}

/** Who sends in one half of a cell, "from → to", as an administrator names it. */
export function directionLabel(
  matrix: TwoTierMatrix,
  block: Block,
  row: number,
  col: number,
  half: Half,
): string {
  if (block === 'isl') {
    const cell = matrix.isl[row * matrix.cores.length + col];
    if (!cell) return '';
    return half === 'up' ? `${cell.edge} → ${cell.core}` : `${cell.core} → ${cell.edge}`;
  }
  const cell = matrix.hosts[row * matrix.hostPorts.length + col];
  if (!cell) return '';
  return half === 'up'
    ? `${cell.host} → ${cell.edge}/${cell.edgePort}`
    : `${cell.edge}/${cell.edgePort} → ${cell.host}`;
}

/** The `limit` hottest cell halves, ISLs first on ties; for the screen-reader summary. */
export function hottestCells(
  matrix: TwoTierMatrix,
  utilization: ArrayLike<number | null>,
  limit: number,
): HotCell[] {
  // The hottest so far, ties in visiting order (ISLs first); labelled only once chosen.
  const found: Omit<HotCell, 'label'>[] = [];
  const keep = Math.max(0, limit);
  const blocks: [Block, number][] = [
    ['isl', matrix.cores.length],
    ['host', matrix.hostPorts.length],
  ];
  for (const [block, cols] of blocks) {
    const lists = blockChannels(matrix, block);
    for (let row = 0; row < matrix.edges.length; row++) {
      for (let col = 0; col < cols; col++) {
        for (const half of ['up', 'down'] as const) {
          const channels = lists[half][row * cols + col];
          if (!channels) continue;
          const max = maxUtilization(channels, utilization);
          if (max === null || max <= 0) continue;
          if (found.length === keep && (found[keep - 1]?.utilization ?? Number.POSITIVE_INFINITY) >= max)
            continue;
          let at = found.length;
          while (at > 0 && (found[at - 1]?.utilization ?? 0) < max) at--;
          found.splice(at, 0, { block, row, col, half, utilization: max });
          if (found.length > keep) found.pop();
        }
      }
    }
  }
  return found.map((c) => ({ ...c, label: directionLabel(matrix, c.block, c.row, c.col, c.half) }));
}
