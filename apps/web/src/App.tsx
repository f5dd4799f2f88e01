import { useMemo } from 'react';
import { isCompact, type LinkSample, type StreamView } from './api/types.ts';
import { AdaptiveRoutingPanel } from './components/AdaptiveRoutingPanel.tsx';
import { FatTreeView } from './components/FatTreeView.tsx';
import { Header } from './components/Header.tsx';
import { LinkTable } from './components/LinkTable.tsx';
import { Panel } from './components/Panel.tsx';
import { SummaryPanel } from './components/SummaryPanel.tsx';
import { TrafficPanel } from './components/TrafficPanel.tsx';
import { hasSeedHosts } from './lib/flows.ts';
import { assessFreshness } from './lib/freshness.ts';
import { MAX_DRAWN_LINKS } from './lib/layout.ts';
import { DEFAULT_TOP_N, type KindFilter, parseKindFilter, parseTopN } from './lib/ranking.ts';
import { rankableLinks, staleDirectionCount } from './lib/snapshot.ts';
import { useAdaptiveRouting } from './state/useAdaptiveRouting.ts';
import { useFabricStream } from './state/useFabricStream.ts';
import { useTopology } from './state/useTopology.ts';
import { useTraffic } from './state/useTraffic.ts';
import { useUrlParam } from './state/useUrlState.ts';

const serializeKind = (kind: KindFilter): string | null => (kind === 'all' ? null : kind);
const serializeTopN = (n: number): string | null => (n === DEFAULT_TOP_N ? null : String(n));

export function App() {
  const { topology, reload: reloadTopology } = useTopology();
  // Fabrics too big for per-link objects get the compact stream (per-channel arrays + the top);
  // the stream waits for the topology, so a big fabric never receives a full message.
  const fabric = topology.status === 'ready' ? topology.data : null;
  const view: StreamView | null =
    topology.status === 'loading'
      ? null
      : fabric && fabric.links.length > MAX_DRAWN_LINKS
        ? 'compact'
        : 'full';
  const stream = useFabricStream(view, view === 'compact' && fabric ? fabric.links.length * 2 : undefined);
  const ar = useAdaptiveRouting();
  const snapshot = stream.snapshot;
  const traffic = useTraffic(snapshot?.time ?? null);
  const [kind, setKind] = useUrlParam('kind', parseKindFilter, serializeKind);
  const [topN, setTopN] = useUrlParam('top', parseTopN, serializeTopN);

  const samples = useMemo(
    () =>
      snapshot && !isCompact(snapshot)
        ? new Map<string, LinkSample>(snapshot.links.map((l) => [l.id, l]))
        : null,
    [snapshot],
  );
  const compact = snapshot && isCompact(snapshot) ? snapshot : null;
  const ranked = snapshot ? rankableLinks(snapshot) : null;
  // Stale as of the last message, or because the stream went silent (the header shows live ages).
  const stale =
    stream.silent ||
    (snapshot !== null &&
      assessFreshness({
        nowMs: stream.receivedAtMs ?? 0,
        receivedAtMs: stream.receivedAtMs,
        lastSampleAgeSeconds: snapshot.health.lastSampleAgeSeconds,
        staleLinkCount: staleDirectionCount(snapshot),
      }).state === 'stale');

  return (
    <div className={`app ${stale ? 'is-stale' : ''}`} data-stale={stale ? 'true' : 'false'}>
      <Header
        topology={topology}
        snapshot={snapshot}
        receivedAtMs={stream.receivedAtMs}
        connection={stream.connection}
        silent={stream.silent}
        streamError={stream.error}
      />
      <main className="grid">
        <Panel title="Fabric" className="area-tree data-view">
          <FatTreeView topology={topology} samples={samples} compact={compact} onRetry={reloadTopology} />
        </Panel>
        <Panel title="Summary" className="area-summary data-view">
          <SummaryPanel summary={snapshot?.summary ?? null} />
        </Panel>
        <Panel title="Routing" className="area-ar">
          <AdaptiveRoutingPanel ar={ar} />
        </Panel>
        <Panel title="Traffic" className="area-traffic">
          <TrafficPanel traffic={traffic} seedAvailable={hasSeedHosts(fabric)} />
        </Panel>
        <Panel title="Link ranking" className="area-table data-view">
          <LinkTable
            links={ranked?.links ?? null}
            totalDirections={ranked?.total ?? null}
            partial={ranked?.partial ?? false}
            kind={kind}
            topN={topN}
            onKindChange={setKind}
            onTopNChange={setTopN}
          />
        </Panel>
      </main>
    </div>
  );
}
