import type { Topology } from '@fabscope/contracts';
import { type ComponentProps, memo, useCallback, useMemo, useState } from 'react';
import { Panel } from './components/Panel.tsx';
import { revealAfterRender } from './components/reveal.ts';
import { AdaptiveRoutingPanel } from './features/adaptive-routing/AdaptiveRoutingPanel.tsx';
import { useAdaptiveRouting } from './features/adaptive-routing/useAdaptiveRouting.ts';
import { AlarmsList } from './features/alarms/AlarmsList.tsx';
import type { HistoryWindowSpec } from './features/history/useHistoryWindow.ts';
import { InvestigatePanel } from './features/investigate/InvestigatePanel.tsx';
import { useShownRoute } from './features/investigate/route/useShownRoute.ts';
import type { TimeTravel } from './features/time-travel/useTimeTravel.ts';
import { TopologyDriftPanel } from './features/topology-drift/TopologyDriftPanel.tsx';
import { TrafficPanel } from './features/traffic/TrafficPanel.tsx';
import {
  LiveHeader,
  LiveTimeBar,
  LiveWindowPanels,
  ShownFatTreeView,
  ShownLinkTable,
  ShownSummaryPanel,
} from './LivePanels.tsx';
import { anyNetworkHas, networkTypes, unmeasuredCables } from './lib/fabricTerms.ts';
import { hasSeedHosts } from './lib/flows.ts';
import { type FabricStreamState, latestMsOf, useLiveSelector } from './state/liveStream.ts';
import { ShownProvider, streamStale } from './state/shownSnapshot.ts';
import { useTraffic } from './state/useTraffic.ts';
import {
  type CompareView,
  type InvestigateView,
  useCompareView,
  useEventFilter,
  useInvestigateView,
  useRankingView,
} from './state/viewState.ts';
import { useDashboardData } from './useDashboardData.ts';

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Local midnight of the day of the newest sample: a clock label's "today" (null before the first). */
function todayOf(s: FabricStreamState): number | null {
  const latestMs = latestMsOf(s);
  return latestMs === null ? null : startOfDay(latestMs);
}

/** The running flows, re-read on ticks; `allFlows` while the contention check reads every flow's rate. */
const TrafficNow = memo(function TrafficNow({
  allFlows,
  ...props
}: Omit<ComponentProps<typeof TrafficPanel>, 'traffic'> & { allFlows: boolean }) {
  const traffic = useTraffic(allFlows);
  return <TrafficPanel {...props} traffic={traffic} />;
});

/** What the panels need to know of the fabric's networks, once per topology. */
function useFabricFacts(fabric: Topology | null) {
  const unmeasured = useMemo(() => (fabric ? unmeasuredCables(fabric) : undefined), [fabric]);
  const hasIsls = useMemo(() => (fabric ? fabric.links.some((l) => l.kind === 'isl') : true), [fabric]);
  const hasWait = useMemo(
    () => (fabric ? anyNetworkHas(networkTypes(fabric), 'waitCounter') : true),
    [fabric],
  );
  const seedAvailable = useMemo(() => hasSeedHosts(fabric), [fabric]);
  return { unmeasured, hasIsls, hasWait, seedAvailable };
}

/** The history panels' props, stable while their contents stay, so a past instant's re-read skips them. */
function useWindowPanels(
  view: InvestigateView,
  time: TimeTravel,
  compare: CompareView,
  setHistoryWidthPx: (px: number) => void,
  todayMs: number,
) {
  const [eventFilter, setEventFilter] = useEventFilter();
  const { links, setLinks, openHistory } = view;
  const { setRange } = time;
  const selectWindow = useCallback(
    (w: { fromMs: number; toMs: number }) => setRange({ kind: 'custom', ...w }),
    [setRange],
  );
  const closeLink = useCallback((id: string) => setLinks(links.filter((l) => l !== id)), [links, setLinks]);
  const { selectJob } = view;
  const { atMs } = time;
  const alarms = useMemo(
    () => <AlarmsList atMs={atMs} onOpenHistory={openHistory} onSelectJob={selectJob} />,
    [atMs, openHistory, selectJob],
  );
  // Shown only where the topology changed since drawn, or drift is configured.
  const drift = useMemo(() => <TopologyDriftPanel />, []);
  const eventsProps = useMemo(
    () => ({ filter: eventFilter, onFilterChange: setEventFilter, onOpenHistory: openHistory }),
    [eventFilter, setEventFilter, openHistory],
  );
  const { setAt } = time;
  const chartProps = useMemo(
    () => ({
      links,
      onPick: setAt,
      onSelectWindow: selectWindow,
      onCloseLink: closeLink,
      onWidth: setHistoryWidthPx,
      nowMs: todayMs,
    }),
    [links, setAt, selectWindow, closeLink, setHistoryWidthPx, todayMs],
  );
  const { tickSeconds } = time;
  const { beforeMs, afterMs, setBeforeMs, setAfterMs } = compare;
  const compareProps = useMemo(
    () => ({
      beforeMs,
      afterMs,
      setBeforeMs,
      setAfterMs,
      tickSeconds,
      onOpenHistory: openHistory,
      nowMs: todayMs,
    }),
    [beforeMs, afterMs, setBeforeMs, setAfterMs, tickSeconds, openHistory, todayMs],
  );

  return { alarms, drift, eventsProps, chartProps, compareProps };
}

/** The dashboard: fabric data, URL view state and the panels; stream messages re-render LivePanels only. */
export function App() {
  const data = useDashboardData();
  const { fabric, time, past, shown } = data;
  const ranking = useRankingView();
  const compare = useCompareView();
  const view = useInvestigateView();

  const ar = useAdaptiveRouting();
  // The total chart's plot width: the history's step follows it.
  const [historyWidthPx, setHistoryWidthPx] = useState(0);
  const { range, atMs, tickSeconds } = time;
  const history = useMemo(
    (): HistoryWindowSpec => ({ range, atMs, tickSeconds, widthPx: historyWidthPx }),
    [range, atMs, tickSeconds, historyWidthPx],
  );
  const { route, shown: shownRoute } = useShownRoute(view);
  const stale = useLiveSelector(streamStale);
  const todayMs = useLiveSelector(todayOf) ?? startOfDay(Date.now());

  const { unmeasured, hasIsls, hasWait, seedAvailable } = useFabricFacts(fabric);
  const { openHistory, selectChannel, selectJob } = view;
  // A click on the drawing opens its history and Link tab far below: the page brings them into view.
  const selectAndReveal = useCallback(
    (id: string) => {
      selectChannel(id);
      revealAfterRender('.area-history');
    },
    [selectChannel],
  );
  const { alarms, drift, eventsProps, chartProps, compareProps } = useWindowPanels(
    view,
    time,
    compare,
    setHistoryWidthPx,
    todayMs,
  );

  return (
    <ShownProvider value={shown}>
      <div className={`app ${stale ? 'is-stale' : ''}`} data-stale={stale ? 'true' : 'false'}>
        <div className="app-top">
          <LiveHeader topology={data.topology} atMs={time.atMs} />
          <LiveTimeBar
            range={time.range}
            onRangeChange={time.setRange}
            atMs={time.atMs}
            onLive={time.goLive}
            history={history}
            bookmarkMs={time.bookmarkMs}
            loading={time.atMs !== null && past.updating}
            error={past.state.status === 'error' ? past.state.message : null}
            todayMs={todayMs}
          />
        </div>
        <main
          className={`grid ${time.atMs === null ? '' : 'is-past'}`}
          data-viewing={time.atMs === null ? 'live' : 'past'}
        >
          <Panel title="Fabric" className="area-tree data-view">
            <ShownFatTreeView
              topology={data.topology}
              route={shownRoute}
              onRetry={data.reloadTopology}
              onSelectChannel={selectAndReveal}
            />
          </Panel>
          <Panel title="Summary" className="area-summary data-view">
            <ShownSummaryPanel onSelectLink={selectChannel} hasIsls={hasIsls} />
          </Panel>
          {/* The controls act on the fabric now, whatever instant the data panels show. */}
          <Panel title={time.atMs === null ? 'Routing' : 'Routing · now'} className="area-ar">
            <AdaptiveRoutingPanel ar={ar} />
          </Panel>
          <Panel title={time.atMs === null ? 'Traffic' : 'Traffic · now'} className="area-traffic">
            <TrafficNow
              allFlows={view.tool === 'contention'}
              seedAvailable={seedAvailable}
              onSelectJob={selectJob}
            />
          </Panel>
          <Panel title="Link ranking" className="area-table data-view">
            <ShownLinkTable
              hasWait={hasWait}
              unmeasured={unmeasured}
              kind={ranking.kind}
              topN={ranking.topN}
              sort={ranking.sort}
              onKindChange={ranking.setKind}
              onTopNChange={ranking.setTopN}
              onSortChange={ranking.setSort}
              onOpenHistory={openHistory}
              atMs={time.atMs}
            />
          </Panel>
          <LiveWindowPanels
            history={history}
            alarms={alarms}
            events={eventsProps}
            between={drift}
            chart={chartProps}
            compare={compareProps}
          />
          <InvestigatePanel view={view} fabric={fabric} route={route} onTravel={time.setAt} />
        </main>
      </div>
    </ShownProvider>
  );
}
