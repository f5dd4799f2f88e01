import { type RefObject, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CompactSnapshot } from '../../api/types.ts';
import { Legend } from '../../components/Legend.tsx';
import { useWidth } from '../../components/useWidth.ts';
import type { TwoTierMatrix } from '../../lib/fabricMatrix.ts';
import { usePreference } from '../../state/preferences.ts';
import { HeatmapCanvas } from './heatmapCanvas.ts';
import { hottestCells } from './heatmapCells.ts';
import { type HeatmapGeometry, type HeatmapHit, hitTest, layoutHeatmap } from './heatmapGeometry.ts';
import { moveHeatmapCursor } from './heatmapKeys.ts';
import { channelAt, cursorText, type HeatmapTip, heatmapSummary, tooltipLines } from './heatmapText.ts';

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

/** The canvas island in `ref`'s element: created once, disposed on unmount. */
function useHeatmapCanvas(ref: RefObject<HTMLElement | null>, onHover: (hit: HeatmapHit | null) => void) {
  const painter = useRef<HeatmapCanvas | null>(null);
  useLayoutEffect(() => {
    const island = ref.current;
    if (!island) return;
    const canvas = new HeatmapCanvas(island, onHover);
    painter.current = canvas;
    return () => {
      canvas.dispose();
      painter.current = null;
    };
  }, [ref, onHover]);
  return painter;
}

function HeatmapTooltip({
  tip,
  hover,
  geometry,
}: {
  tip: HeatmapTip;
  hover: HeatmapHit;
  geometry: HeatmapGeometry;
}) {
  const block = geometry.blocks.find((b) => b.block === hover.block);
  const left = block ? block.x + (hover.col + 1) * geometry.cellW + 10 : 0;
  const top = block ? block.y + hover.row * geometry.cellH : 0;
  const flip = left > geometry.width - 300;
  return (
    <div
      className="heatmap-tooltip"
      role="tooltip"
      style={flip ? { left: left - geometry.cellW - 20, top, transform: 'translateX(-100%)' } : { left, top }}
    >
      <div className="heatmap-tooltip-title">{tip.title}</div>
      {tip.lines.map((line) => (
        <div key={line.label} className={line.active ? 'tip-line tip-active' : 'tip-line'}>
          <span className="mono">{line.label}</span>
          <span className="tip-value">
            {line.value}
            {line.evidence && <span className="tip-evidence">{line.evidence}</span>}
          </span>
        </div>
      ))}
      {tip.note && <div className="muted small">{tip.note}</div>}
    </div>
  );
}

function HeatmapFooter({
  matrix,
  marked,
  clickable,
  waiting,
}: {
  matrix: TwoTierMatrix;
  marked: ReadonlySet<number> | null;
  clickable: boolean;
  waiting: boolean;
}) {
  return (
    <div className="fat-tree-footer">
      <Legend marks="cell" />
      <span className="heatmap-key" aria-hidden="true">
        <span className="key-cell" /> ◤ up (edge → core, host → edge) · ◢ down · ○ waiting ≥ 10 % (XmitWait) ·{' '}
        <span className="key-errors">◆</span> errors
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
        {clickable && ' Click a cell half for the flows and jobs on that direction, and its history.'}
        {waiting && ' Waiting for the first sample.'}
      </span>
    </div>
  );
}

/** Two-tier heatmap: React owns the frame, tooltip and text; the canvas island owns the pixels. */
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
  const [hover, setHover] = useState<HeatmapHit | null>(null);
  const summaryId = useId();
  const onHover = useCallback((hit: HeatmapHit | null) => setHover(hit), []);
  const width = useWidth(stageRef);
  const painter = useHeatmapCanvas(islandRef, onHover);

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
  }, [painter, geometry, matrix, snapshot, marked, down, errors, hover, label, summaryId]);

  const hottest = useMemo(
    () => (snapshot ? hottestCells(matrix, snapshot.utilization, SUMMARY_CELLS) : []),
    [matrix, snapshot],
  );
  const tip = hover ? tooltipLines(matrix, hover, snapshot, unit) : null;
  const select = (hit: HeatmapHit) => {
    const channel = channelAt(matrix, hit);
    if (channel !== undefined) onSelectChannel?.(channel);
  };

  return (
    <div className="heatmap">
      <div
        className={`heatmap-stage ${onSelectChannel ? 'is-clickable' : ''}`}
        ref={stageRef}
        // Arrows move an announced cursor, Space flips the direction, Enter opens its history.
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
            select(hover);
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
          if (hit) select(hit);
        }}
      >
        <div className="heatmap-island" ref={islandRef} />
        {tip && hover && geometry && <HeatmapTooltip tip={tip} hover={hover} geometry={geometry} />}
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="heatmap-cursor">
        {cursorText(tip)}
      </p>
      <p id={summaryId} className="visually-hidden" data-testid="heatmap-summary">
        {heatmapSummary(snapshot, hottest)}
        {errors.size > 0 && ` ${errors.size} link directions with errors.`}
      </p>
      <HeatmapFooter
        matrix={matrix}
        marked={marked}
        clickable={!!onSelectChannel}
        waiting={snapshot === null}
      />
    </div>
  );
}
