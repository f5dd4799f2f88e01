import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CompactSnapshot } from '../../api/types.ts';
import { Legend } from '../../components/Legend.tsx';
import {
  cellChannels,
  type DirectionValue,
  directionValue,
  hottestCells,
  type TwoTierMatrix,
} from '../../lib/fabricMatrix.ts';
import { formatPercent, formatRate, type RateUnit } from '../../lib/format.ts';
import { usePreference } from '../../state/preferences.ts';
import { HeatmapCanvas } from './heatmapCanvas.ts';
import { type HeatmapGeometry, type HeatmapHit, hitTest, layoutHeatmap } from './heatmapGeometry.ts';
import { moveHeatmapCursor } from './heatmapKeys.ts';

interface FabricHeatmapProps {
  name: string;
  matrix: TwoTierMatrix;
  /** Latest compact stream message, or null before the first. */
  snapshot: CompactSnapshot | null;
  /** Channels to outline (the selected route), or null. */
  marked?: ReadonlySet<number> | null;
  /** A click on a cell half: the channel (of that direction) whose history to open. */
  onSelectChannel?: ((channel: number) => void) | undefined;
}

/** Hottest cells named in the canvas's text alternative. */
const SUMMARY_CELLS = 8;

function valueText(v: DirectionValue, unit: RateUnit): string {
  if (v.max === null) return 'unknown (stale)';
  const rate = formatRate(v.bytesPerSecond, unit);
  if (v.count === 1) return `${formatPercent(v.max)} · ${rate}`;
  return `max ${formatPercent(v.max)}, mean ${formatPercent(v.mean)} · ${rate} total`;
}

interface TooltipLine {
  label: string;
  value: string;
  active: boolean;
}

function tooltipLines(
  matrix: TwoTierMatrix,
  hit: HeatmapHit,
  snapshot: CompactSnapshot | null,
  unit: RateUnit,
): { title: string; lines: TooltipLine[]; note: string | null } | null {
  const channels = cellChannels(matrix, hit.block, hit.row, hit.col);
  if (!channels) return null;
  const u = snapshot?.utilization ?? [];
  const b = snapshot?.bytesPerSecond ?? [];
  const up = directionValue(channels.up, u, b);
  const down = directionValue(channels.down, u, b);
  const show = (v: DirectionValue) => (snapshot ? valueText(v, unit) : 'waiting for the first sample');
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
        { label: `↑ ${cell.edge} → ${cell.core}`, value: show(up), active: hit.half === 'up' },
        { label: `↓ ${cell.core} → ${cell.edge}`, value: show(down), active: hit.half === 'down' },
      ],
      note: ports,
    };
  }
  const cell = matrix.hosts[hit.row * matrix.hostPorts.length + hit.col];
  if (!cell) return null;
  return {
    title: `${cell.host} on ${cell.edge} port ${cell.edgePort}`,
    lines: [
      { label: `↑ ${cell.host} → ${cell.edge} (host sends)`, value: show(up), active: hit.half === 'up' },
      {
        label: `↓ ${cell.edge} → ${cell.host} (host receives)`,
        value: show(down),
        active: hit.half === 'down',
      },
    ],
    note: null,
  };
}

/**
 * Two-tier fat-tree heatmap on a canvas: the ISL matrix (edge rows × core columns) beside the
 * host-port strip (edge rows × host ports), every cell split into its two directions. React owns
 * the frame, tooltip and text alternative; the canvas island (HeatmapCanvas) owns the pixels.
 */
export function FabricHeatmap({
  name,
  matrix,
  snapshot,
  marked = null,
  onSelectChannel,
}: FabricHeatmapProps) {
  const unit = usePreference('rateUnit');
  const stageRef = useRef<HTMLDivElement>(null);
  const islandRef = useRef<HTMLDivElement>(null);
  const painter = useRef<HeatmapCanvas | null>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<HeatmapHit | null>(null);
  const summaryId = useId();
  const onHover = useCallback((hit: HeatmapHit | null) => setHover(hit), []);

  // Width of the panel, followed as the window resizes.
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    setWidth(stage.clientWidth);
    const observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined) setWidth(Math.floor(w));
    });
    observer.observe(stage);
    return () => observer.disconnect();
  }, []);

  // The canvas island: created once, disposed on unmount.
  useLayoutEffect(() => {
    const island = islandRef.current;
    if (!island) return;
    const canvas = new HeatmapCanvas(island, onHover);
    painter.current = canvas;
    return () => {
      canvas.dispose();
      painter.current = null;
    };
  }, [onHover]);

  const geometry = useMemo((): HeatmapGeometry | null => {
    if (width <= 0) return null;
    return layoutHeatmap({
      rows: matrix.edges,
      islCols: matrix.cores,
      hostCols: matrix.hostPorts.map(String),
      width,
    });
  }, [matrix, width]);

  const hostCount = matrix.hosts.reduce((n, c) => n + (c ? 1 : 0), 0);
  const label =
    `Utilization heatmap of ${name}: ISL matrix of ${matrix.edges.length} edge × ${matrix.cores.length} core ` +
    `switches and ${hostCount} host ports, each cell split into up and down directions`;

  const down = useMemo(() => new Set(snapshot?.linkDown ?? []), [snapshot]);
  const errors = useMemo(() => new Set((snapshot?.errors ?? []).map(([c]) => c)), [snapshot]);
  useLayoutEffect(() => {
    if (!geometry) return;
    painter.current?.update({
      geometry,
      matrix,
      utilization: snapshot?.utilization ?? null,
      marked,
      down,
      wait: snapshot?.waitFraction ?? null,
      errors,
      hover,
      label,
      describedBy: summaryId,
    });
  }, [geometry, matrix, snapshot, marked, down, errors, hover, label, summaryId]);

  const hottest = useMemo(
    () => (snapshot ? hottestCells(matrix, snapshot.utilization, SUMMARY_CELLS) : []),
    [matrix, snapshot],
  );
  const summary =
    snapshot === null
      ? 'Waiting for the first sample.'
      : hottest.length === 0
        ? 'Every link direction is idle or unknown.'
        : `Hottest cells: ${hottest
            .map(
              (c) => `${c.block === 'isl' ? 'ISL' : 'host link'} ${c.label} ${formatPercent(c.utilization)}`,
            )
            .join('; ')}.`;

  const tip = hover ? tooltipLines(matrix, hover, snapshot, unit) : null;
  const block = hover && geometry ? geometry.blocks.find((b) => b.block === hover.block) : undefined;
  const tipLeft = block && hover && geometry ? block.x + (hover.col + 1) * geometry.cellW + 10 : 0;
  const tipTop = block && hover && geometry ? block.y + hover.row * geometry.cellH : 0;
  const flip = geometry !== null && tipLeft > geometry.width - 300;

  return (
    <div className="heatmap">
      <div
        className={`heatmap-stage ${onSelectChannel ? 'is-clickable' : ''}`}
        ref={stageRef}
        // Keyboard: arrows move a cursor over every cell (its tooltip shows and is announced),
        // Space flips the direction, Enter opens that direction's history.
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: role="application" is interactive: one tab stop, arrow keys for thousands of cells
        tabIndex={0}
        aria-label={`${label}. Arrow keys move between cells, Space switches direction${
          onSelectChannel ? ', Enter opens its history' : ''
        }.`}
        aria-describedby={summaryId}
        onKeyDown={(event) => {
          if (!geometry) return;
          if (event.key === 'Enter' && hover && onSelectChannel) {
            const channels = cellChannels(matrix, hover.block, hover.row, hover.col);
            const channel = (hover.half === 'up' ? channels?.up : channels?.down)?.[0];
            if (channel !== undefined) onSelectChannel(channel);
            return;
          }
          if (event.key === 'Escape') {
            setHover(null);
            return;
          }
          const next = moveHeatmapCursor(geometry.blocks, hover, event.key);
          if (!next) return;
          event.preventDefault();
          setHover(next);
        }}
        onClick={(event) => {
          const canvas = islandRef.current?.querySelector('canvas');
          if (!onSelectChannel || !geometry || !canvas) return;
          const box = canvas.getBoundingClientRect();
          const hit = hitTest(geometry, event.clientX - box.left, event.clientY - box.top);
          if (!hit) return;
          const channels = cellChannels(matrix, hit.block, hit.row, hit.col);
          const channel = (hit.half === 'up' ? channels?.up : channels?.down)?.[0];
          if (channel !== undefined) onSelectChannel(channel);
        }}
      >
        <div className="heatmap-island" ref={islandRef} />
        {tip && geometry && (
          <div
            className="heatmap-tooltip"
            role="tooltip"
            style={
              flip
                ? { left: tipLeft - geometry.cellW - 20, top: tipTop, transform: 'translateX(-100%)' }
                : { left: tipLeft, top: tipTop }
            }
          >
            <div className="heatmap-tooltip-title">{tip.title}</div>
            {tip.lines.map((line) => (
              <div key={line.label} className={line.active ? 'tip-line tip-active' : 'tip-line'}>
                <span className="mono">{line.label}</span>
                <span className="tip-value">{line.value}</span>
              </div>
            ))}
            {tip.note && <div className="muted small">{tip.note}</div>}
          </div>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="heatmap-cursor">
        {tip
          ? `${tip.title}: ${tip.lines
              .filter((l) => l.active)
              .map((l) => `${l.label} ${l.value}`)
              .join('')}`
          : ''}
      </p>
      <p id={summaryId} className="visually-hidden" data-testid="heatmap-summary">
        {summary}
        {errors.size > 0 && ` ${errors.size} link directions with errors.`}
      </p>
      <div className="fat-tree-footer">
        <Legend marks="cell" />
        <span className="heatmap-key" aria-hidden="true">
          <span className="key-cell" /> ◤ up (edge → core, host → edge) · ◢ down · ○ waiting ≥ 10 % (XmitWait)
          · <span className="key-errors">◆</span> errors
          {marked && marked.size > 0 && (
            <>
              {' '}
              · <span className="key-route" /> highlighted route or job
            </>
          )}
        </span>
        <span className="hint">
          {matrix.maxTrunk > 1
            ? `Trunked ISLs (up to ${matrix.maxTrunk} per pair) show their busiest cable; hover for the mean.`
            : 'Hover a cell for switch and port names, utilization and rate.'}
          {onSelectChannel && ' Click a cell half for the flows and jobs on that direction, and its history.'}
          {snapshot === null && ' Waiting for the first sample.'}
        </span>
      </div>
    </div>
  );
}
