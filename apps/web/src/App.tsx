import { useCallback, useMemo } from 'react';
import { AdaptiveRoutingPanel } from './components/AdaptiveRoutingPanel.tsx';
import { AlarmsList } from './components/AlarmsList.tsx';
import { BeforeAfterPanel } from './components/BeforeAfterPanel.tsx';
import { EventsPanel } from './components/EventsPanel.tsx';
import { FatTreeView } from './components/FatTreeView.tsx';
import { Header } from './components/Header.tsx';
import { HistoryPanel } from './components/HistoryPanel.tsx';
import { InvestigatePanel } from './components/InvestigatePanel.tsx';
import { LinkTable } from './components/LinkTable.tsx';
import { Panel } from './components/Panel.tsx';
import { SummaryPanel } from './components/SummaryPanel.tsx';
import { TimeBar } from './components/TimeBar.tsx';
import { TopologyDriftPanel } from './components/TopologyDriftPanel.tsx';
import { TrafficPanel } from './components/TrafficPanel.tsx';
import { lastChangeMs } from './lib/events.ts';
import { anyNetworkHas, networkTypes, unmeasuredCables } from './lib/fabricTerms.ts';
import { hasSeedHosts } from './lib/flows.ts';
import { useAdaptiveRouting } from './state/useAdaptiveRouting.ts';
import { useDashboardData } from './state/useDashboardData.ts';
import { useEvents, useHistoryWindow } from './state/useHistoryWindow.ts';
import { useShownRoute } from './state/useShownRoute.ts';
import { useTraffic } from './state/useTraffic.ts';
import { useCompareView, useEventFilter, useInvestigateView, useRankingView } from './state/viewState.ts';

/** Local midnight of the day of `ms`. */
function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * The dashboard: the fabric's data (useDashboardData), the view state kept in the URL
 * (state/viewState.ts), and the panels in their grid areas. Each panel asks the API for its own
 * answers through the one query hook; this only wires them together.
 */
export function App() {
  const data = useDashboardData();
  const { fabric, liveSnapshot, liveTick, snapshot, samples, compact, ranked, time, past } = data;
  const ranking = useRankingView();
  const [eventFilter, setEventFilter] = useEventFilter();
  const compare = useCompareView();
  const view = useInvestigateView();

  const ar = useAdaptiveRouting();
  const traffic = useTraffic(liveTick);
  const history = useHistoryWindow(time.range, time.atMs, time.latestMs, time.tickSeconds);
  const events = useEvents(history.window);
  const { route, shown: shownRoute } = useShownRoute(view, liveTick);

  const unmeasured = useMemo(() => (fabric ? unmeasuredCables(fabric) : undefined), [fabric]);
  const hasIsls = useMemo(() => (fabric ? fabric.links.some((l) => l.kind === 'isl') : true), [fabric]);
  const hasWait = useMemo(
    () => (fabric ? anyNetworkHas(networkTypes(fabric), 'waitCounter') : true),
    [fabric],
  );
  const seedAvailable = useMemo(() => hasSeedHosts(fabric), [fabric]);
  const nowMs = time.latestMs ?? Date.now();
  // What a clock label needs of now: the day (formatClock adds the date to other days' times).
  const todayMs = startOfDay(nowMs);
  const { links, setLinks, openHistory, selectChannel, selectJob } = view;
  const { setRange } = time;
  const selectWindow = useCallback(
    (w: { fromMs: number; toMs: number }) => setRange({ kind: 'custom', ...w }),
    [setRange],
  );
  const closeLink = useCallback((id: string) => setLinks(links.filter((l) => l !== id)), [links, setLinks]);
  const { setBeforeMs, setAfterMs } = compare;
  const changeCompare = useCallback(
    (which: 'before' | 'after', ms: number | null) => (which === 'before' ? setBeforeMs(ms) : setAfterMs(ms)),
    [setBeforeMs, setAfterMs],
  );
  const changeCompareBoth = useCallback(
    (b: number | null, a: number | null) => {
      setBeforeMs(b);
      setAfterMs(a);
    },
    [setBeforeMs, setAfterMs],
  );
  const lastArChange =
    events.status === 'ready' ? lastChangeMs(events.data.events, 'adaptive-routing') : null;

  return (
    <div className={`app ${data.stale ? 'is-stale' : ''}`} data-stale={data.stale ? 'true' : 'false'}>
      <div className="app-top">
        <Header
          topology={data.topology}
          snapshot={liveSnapshot}
          receivedAtMs={data.stream.receivedAtMs}
          connection={data.stream.connection}
          silent={data.stream.silent}
          streamError={data.stream.error}
        />
        <TimeBar
          range={time.range}
          onRangeChange={time.setRange}
          atMs={time.atMs}
          onLive={time.goLive}
          window={history.window}
          bookmarkMs={time.bookmarkMs}
          loading={time.atMs !== null && past.updating}
          error={past.state.status === 'error' ? past.state.message : null}
          // Live, the bar's clock labels need only the day; a past instant says how long before live.
          nowMs={time.atMs === null ? todayMs : nowMs}
        />
      </div>
      <main
        className={`grid ${time.atMs === null ? '' : 'is-past'}`}
        data-viewing={time.atMs === null ? 'live' : 'past'}
      >
        <Panel title="Fabric" className="area-tree data-view">
          <FatTreeView
            topology={data.topology}
            samples={samples}
            compact={compact}
            route={shownRoute}
            onRetry={data.reloadTopology}
            onSelectChannel={selectChannel}
          />
        </Panel>
        <Panel title="Summary" className="area-summary data-view">
          <SummaryPanel
            summary={snapshot?.summary ?? null}
            links={ranked?.links ?? null}
            onSelectLink={selectChannel}
            hasIsls={hasIsls}
          />
        </Panel>
        {/* The controls act on the fabric now, whatever instant the data panels show. */}
        <Panel title={time.atMs === null ? 'Routing' : 'Routing · now'} className="area-ar">
          <AdaptiveRoutingPanel ar={ar} />
        </Panel>
        <Panel title={time.atMs === null ? 'Traffic' : 'Traffic · now'} className="area-traffic">
          <TrafficPanel traffic={traffic} seedAvailable={seedAvailable} onSelectJob={selectJob} />
        </Panel>
        <Panel title="Link ranking" className="area-table data-view">
          <LinkTable
            hasWait={hasWait}
            unmeasured={unmeasured}
            links={ranked?.links ?? null}
            totalDirections={ranked?.total ?? null}
            partial={ranked?.partial ?? false}
            kind={ranking.kind}
            topN={ranking.topN}
            sort={ranking.sort}
            onKindChange={ranking.setKind}
            onTopNChange={ranking.setTopN}
            onSortChange={ranking.setSort}
            onOpenHistory={openHistory}
          />
        </Panel>
        <Panel title="Events" className="area-events">
          {time.atMs === null && <AlarmsList tick={liveTick} onOpenHistory={openHistory} />}
          <EventsPanel
            events={events}
            filter={eventFilter}
            onFilterChange={setEventFilter}
            onOpenHistory={openHistory}
          />
        </Panel>
        {/* Shown only where the topology changed since drawn, or drift is configured. */}
        <TopologyDriftPanel tick={liveTick} />
        <Panel title="History" className="area-history">
          <HistoryPanel
            window={history.window}
            step={history.step}
            atMs={time.atMs}
            links={links}
            eventFilter={eventFilter}
            onPick={time.setAt}
            onSelectWindow={selectWindow}
            onCloseLink={closeLink}
            onWidth={history.setWidth}
            nowMs={todayMs}
          />
        </Panel>
        <Panel title="Before / after" className="area-compare">
          <BeforeAfterPanel
            beforeMs={compare.beforeMs}
            afterMs={compare.afterMs}
            onChange={changeCompare}
            onChangeBoth={changeCompareBoth}
            shownMs={time.atMs ?? time.latestMs}
            latestMs={time.latestMs}
            lastArChangeMs={lastArChange}
            tickSeconds={time.tickSeconds}
            onOpenHistory={openHistory}
            nowMs={todayMs}
          />
        </Panel>
        <InvestigatePanel
          view={view}
          fabric={fabric}
          snapshot={snapshot}
          liveSnapshot={liveSnapshot}
          samples={samples}
          compact={compact}
          liveTick={liveTick}
          route={route}
          traffic={traffic}
        />
      </main>
    </div>
  );
}
