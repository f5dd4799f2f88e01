import { useMemo } from 'react';
import {
  type CompactSnapshot,
  isCompact,
  type LinkDirectionState,
  type LiveSnapshot,
  type StreamView,
  type Topology,
} from '../api/types.ts';
import { assessFreshness } from '../lib/freshness.ts';
import { MAX_DRAWN_LINKS } from '../lib/layout.ts';
import { type RankableLinks, rankableLinks, staleDirectionCount } from '../lib/snapshot.ts';
import type { Remote } from './useApiQuery.ts';
import { type FabricStreamState, useFabricStream } from './useFabricStream.ts';
import { usePastSnapshot } from './usePastSnapshot.ts';
import { type TimeTravel, useTimeTravel } from './useTimeTravel.ts';
import { type Loadable, useTopology } from './useTopology.ts';

export interface DashboardData {
  topology: Loadable<Topology>;
  /** The topology once loaded. */
  fabric: Topology | null;
  reloadTopology: () => void;
  stream: FabricStreamState;
  /** The newest message of the stream. */
  liveSnapshot: LiveSnapshot | null;
  /** The newest sample's time: the tick every live answer is re-asked on. */
  liveTick: string | null;
  time: TimeTravel;
  /** The past instant chosen, while time travelling. */
  past: { state: Remote<LiveSnapshot>; updating: boolean };
  /** What the data panels show: the live snapshot, or the past instant chosen (null while it loads). */
  snapshot: LiveSnapshot | null;
  /** The shown snapshot's directions by id (full encoding); null for a compact one. */
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  /** The shown snapshot when compact (big fabrics). */
  compact: CompactSnapshot | null;
  /** The directions the ranking and summary rank, from the shown snapshot. */
  ranked: RankableLinks | null;
  /** The live data is stale, or the stream went silent. */
  stale: boolean;
}

/**
 * The fabric's data as the dashboard shows it: the topology, the one live stream (compact for
 * fabrics too big for per-link objects, opened once the topology is known), time travel, and the
 * snapshot every data panel draws — live, or the instant chosen.
 */
export function useDashboardData(): DashboardData {
  const { topology, reload: reloadTopology, refresh: refreshTopology } = useTopology();
  const fabric = topology.status === 'ready' ? topology.data : null;
  const view: StreamView | null =
    topology.status === 'loading'
      ? null
      : fabric && fabric.links.length > MAX_DRAWN_LINKS
        ? 'compact'
        : 'full';
  // A tick of another topology version (the API draws a re-discovered fabric): fetch it again.
  const stream = useFabricStream(
    view,
    fabric ? { channels: fabric.links.length * 2, version: fabric.version ?? 0 } : undefined,
    refreshTopology,
  );
  const liveSnapshot = stream.snapshot;
  // Time travel: when an instant is chosen, every data view shows it instead of the live stream.
  const time = useTimeTravel(liveSnapshot?.time ?? null, liveSnapshot?.health.intervalMs);
  const past = usePastSnapshot(time.atMs, time.latestMs, fabric, liveSnapshot?.health ?? null);
  const snapshot = time.atMs === null ? liveSnapshot : past.state.status === 'ready' ? past.state.data : null;
  const samples = useMemo(
    () =>
      snapshot && !isCompact(snapshot)
        ? new Map<string, LinkDirectionState>(snapshot.links.map((l) => [l.id, l]))
        : null,
    [snapshot],
  );
  const compact = snapshot && isCompact(snapshot) ? snapshot : null;
  const ranked = useMemo(() => (snapshot ? rankableLinks(snapshot) : null), [snapshot]);
  // Stale as of the last message, or because the stream went silent (the header shows live ages).
  const stale = useMemo(
    () =>
      stream.silent ||
      (liveSnapshot !== null &&
        assessFreshness({
          nowMs: stream.receivedAtMs ?? 0,
          receivedAtMs: stream.receivedAtMs,
          lastSampleAgeSeconds: liveSnapshot.health.lastSampleAgeSeconds,
          staleLinkCount: staleDirectionCount(liveSnapshot),
          policy: liveSnapshot.health,
        }).state === 'stale'),
    [stream.silent, stream.receivedAtMs, liveSnapshot],
  );
  return {
    topology,
    fabric,
    reloadTopology,
    stream,
    liveSnapshot,
    liveTick: liveSnapshot?.time ?? null,
    time,
    past,
    snapshot,
    samples,
    compact,
    ranked,
    stale,
  };
}
