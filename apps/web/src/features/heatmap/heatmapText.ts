import { formatRate, type RateUnit } from '@fabscope/contracts/units';
import type { CompactSnapshot } from '../../api/types.ts';
import type { TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { formatPercent } from '../../lib/format.ts';
import { cellChannels, type DirectionValue, directionValue, type HotCell } from './heatmapCells.ts';
import { directionEvidence } from './heatmapEvidence.ts';
import type { HeatmapHit } from './heatmapGeometry.ts';

/** What the heatmap says in words: its tooltip, its text alternative, the channel a cell half is. */

export interface HeatmapTip {
  title: string;
  lines: TooltipLine[];
  note: string | null;
}

function valueText(v: DirectionValue, unit: RateUnit): string {
  if (v.max === null) return 'unknown (stale)';
  const rate = formatRate(v.bytesPerSecond, unit);
  if (v.count === 1) return `${formatPercent(v.max)} · ${rate}`;
  return `max ${formatPercent(v.max)}, mean ${formatPercent(v.mean)} · ${rate} total`;
}

export interface TooltipLine {
  label: string;
  value: string;
  active: boolean;
  /** Wait and errors of the direction, e.g. "Wait 66.7 % · no errors"; null before the first sample. */
  evidence: string | null;
}

export function tooltipLines(
  matrix: TwoTierMatrix,
  hit: HeatmapHit,
  snapshot: CompactSnapshot | null,
  unit: RateUnit,
): HeatmapTip | null {
  const channels = cellChannels(matrix, hit.block, hit.row, hit.col);
  if (!channels) return null;
  const u = snapshot?.utilization ?? [];
  const b = snapshot?.bytesPerSecond ?? [];
  const up = directionValue(channels.up, u, b);
  const down = directionValue(channels.down, u, b);
  const show = (v: DirectionValue) => (snapshot ? valueText(v, unit) : 'waiting for the first sample');
  const evidence = (list: readonly number[], half: 'up' | 'down') => {
    if (!snapshot) return null;
    const e = directionEvidence(list, snapshot, directionIds(matrix, hit, half));
    return [e.wait, e.errors, e.categories].filter((t) => t !== null).join(' · ');
  };
  if (hit.block === 'isl') {
    const cell = matrix.isl[hit.row * matrix.cores.length + hit.col];
    if (!cell) return null;
    const trunks = cell.up.length;
    const ports =
      trunks === 1
        ? `${cell.edge}/${cell.edgePorts[0]} ↔ ${cell.core}/${cell.corePorts[0]}`
        : `${trunks} trunked ISLs: ${cell.edge} ports ${cell.edgePorts.join(', ')}`;
    return {
      title: `ISL ${cell.edge} ↔ ${cell.core}`,
      lines: [
        {
          label: `↑ ${cell.edge} → ${cell.core}`,
          value: show(up),
          active: hit.half === 'up',
          evidence: evidence(channels.up, 'up'),
        },
        {
          label: `↓ ${cell.core} → ${cell.edge}`,
          value: show(down),
          active: hit.half === 'down',
          evidence: evidence(channels.down, 'down'),
        },
      ],
      note: ports,
    };
  }
  const cell = matrix.hosts[hit.row * matrix.hostPorts.length + hit.col];
  if (!cell) return null;
  return {
    title: `${cell.host} on ${cell.edge} port ${cell.edgePort}`,
    lines: [
      {
        label: `↑ ${cell.host} → ${cell.edge} (host sends)`,
        value: show(up),
        active: hit.half === 'up',
        evidence: evidence(channels.up, 'up'),
      },
      {
        label: `↓ ${cell.edge} → ${cell.host} (host receives)`,
        value: show(down),
        active: hit.half === 'down',
        evidence: evidence(channels.down, 'down'),
      },
    ],
    note: null,
  };
}

/** The link direction ids (`node/port->node/port`) of a cell half, one per trunk. */
export function directionIds(
  matrix: TwoTierMatrix,
  hit: Omit<HeatmapHit, 'half'>,
  half: 'up' | 'down',
): string[] {
  if (hit.block === 'isl') {
    const cell = matrix.isl[hit.row * matrix.cores.length + hit.col];
    if (!cell) return [];
    return cell.edgePorts.map((edgePort, i) => {
      const edge = `${cell.edge}/${edgePort}`;
      const core = `${cell.core}/${cell.corePorts[i]}`;
      return half === 'up' ? `${edge}->${core}` : `${core}->${edge}`;
    });
  }
  const cell = matrix.hosts[hit.row * matrix.hostPorts.length + hit.col];
  if (!cell) return [];
  const host = `${cell.host}/${cell.hostPort}`;
  const edge = `${cell.edge}/${cell.edgePort}`;
  return [half === 'up' ? `${host}->${edge}` : `${edge}->${host}`];
}

/** The channel of a cell half (the first of trunked cables), for its history. */
export function channelAt(matrix: TwoTierMatrix, hit: HeatmapHit): number | undefined {
  const channels = cellChannels(matrix, hit.block, hit.row, hit.col);
  return (hit.half === 'up' ? channels?.up : channels?.down)?.[0];
}

/** The text alternative's summary: the hottest cells. */
export function heatmapSummary(snapshot: CompactSnapshot | null, hottest: readonly HotCell[]): string {
  if (snapshot === null) return 'Waiting for the first sample.';
  if (hottest.length === 0) return 'Every link direction is idle or unknown.';
  return `Hottest cells: ${hottest
    .map((c) => `${c.block === 'isl' ? 'ISL' : 'host link'} ${c.label} ${formatPercent(c.utilization)}`)
    .join('; ')}.`;
}

/** The announcement of the cell under the keyboard cursor. */
export function cursorText(tip: HeatmapTip | null): string {
  return tip
    ? `${tip.title}: ${tip.lines
        .filter((l) => l.active)
        .map((l) => `${l.label} ${l.value}${l.evidence ? `, ${l.evidence}` : ''}`)
        .join('')}`
    : '';
}
