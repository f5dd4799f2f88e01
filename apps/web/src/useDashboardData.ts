import { useMemo } from 'react';
import type { StreamView } from './api/types.ts';
import { usePastSnapshot } from './features/time-travel/usePastSnapshot.ts';
import { useTimeTravel } from './features/time-travel/useTimeTravel.ts';
import { MAX_DRAWN_LINKS } from './lib/layout.ts';
import { summarizedTierGroups } from './lib/tierGroups.ts';
import type { Shown } from './state/shownSnapshot.ts';
import { useFabricStream } from './state/useFabricStream.ts';
import { useTopology } from './state/useTopology.ts';

/** Topology, the one live stream, time travel and the instant drawn; messages don't re-render the caller. */
export function useDashboardData() {
  const { topology, reload: reloadTopology, refresh: refreshTopology } = useTopology();
  const fabric = topology.status === 'ready' ? topology.data : null;
  const view: StreamView | null =
    topology.status === 'loading'
      ? null
      : fabric && fabric.links.length > MAX_DRAWN_LINKS
        ? 'compact'
        : 'full';
  // Another topology version is fetched again; a tier view gets tier summaries from the worker.
  const streamTopology = useMemo(
    () =>
      fabric
        ? {
            channels: fabric.links.length * 2,
            version: fabric.version ?? 0,
            tiers: summarizedTierGroups(fabric),
          }
        : undefined,
    [fabric],
  );
  useFabricStream(view, streamTopology, refreshTopology);
  // Time travel: when an instant is chosen, every data view shows it instead of the live stream.
  const time = useTimeTravel();
  const past = usePastSnapshot(time.atMs, fabric);
  const pastSnapshot = time.atMs === null ? null : past.state.status === 'ready' ? past.state.data : null;
  // Which instant the data panels show (ShownProvider): live, or the past instant chosen.
  const shown: Shown = useMemo(() => ({ atMs: time.atMs, past: pastSnapshot }), [time.atMs, pastSnapshot]);
  return { topology, fabric, reloadTopology, time, past, shown };
}
