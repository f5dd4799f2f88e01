import { useCallback, useEffect, useMemo } from 'react';
import { isCompact, type JobDetail, type LinkDirectionState, type StreamView } from './api/types.ts';
import { AdaptiveRoutingPanel } from './components/AdaptiveRoutingPanel.tsx';
import { AlarmsList } from './components/AlarmsList.tsx';
import { BeforeAfterPanel } from './components/BeforeAfterPanel.tsx';
import { ContentionPanel } from './components/ContentionPanel.tsx';
import { EventsPanel } from './components/EventsPanel.tsx';
import { FatTreeView } from './components/FatTreeView.tsx';
import { FaultsPanel } from './components/FaultsPanel.tsx';
import { Header } from './components/Header.tsx';
import { HistoryPanel } from './components/HistoryPanel.tsx';
import { JobsPanel } from './components/JobsPanel.tsx';
import { LinkFlowsPanel } from './components/LinkFlowsPanel.tsx';
import { LinkTable } from './components/LinkTable.tsx';
import { Panel } from './components/Panel.tsx';
import { PortPanel, PortSearch } from './components/PortPanel.tsx';
import { RoutePanel } from './components/RoutePanel.tsx';
import { StaticLoadPanel } from './components/StaticLoadPanel.tsx';
import { SummaryPanel } from './components/SummaryPanel.tsx';
import { type TabDef, Tabs } from './components/Tabs.tsx';
import { TimeBar } from './components/TimeBar.tsx';
import { TopologyDriftPanel } from './components/TopologyDriftPanel.tsx';
import { TrafficPanel } from './components/TrafficPanel.tsx';
import { type PatternDraft, pairsDraft } from './lib/contention.ts';
import { type EventFilter, parseEventKinds, serializeEventKinds } from './lib/events.ts';
import { anyNetworkHas, networkTypes, unmeasuredCables } from './lib/fabricTerms.ts';
import { downLinkIds, downLinkIdsCompact, islChoices } from './lib/faults.ts';
import { hasSeedHosts, SEED_PAIRS } from './lib/flows.ts';
import { assessFreshness } from './lib/freshness.ts';
import { parseSeverity } from './lib/health.ts';
import { jobHighlight } from './lib/jobs.ts';
import { MAX_DRAWN_LINKS } from './lib/layout.ts';
import { parseLinkSelection, selectLink, serializeLinkSelection } from './lib/linkSelection.ts';
import {
  DEFAULT_TOP_N,
  type KindFilter,
  parseKindFilter,
  parseSortKey,
  parseTopN,
  type SortKey,
} from './lib/ranking.ts';
import {
  channelIndexById,
  compactLoad,
  endpointNames,
  parseNodeParam,
  serializeNodeParam,
} from './lib/route.ts';
import { rankableLinks, staleDirectionCount } from './lib/snapshot.ts';
import { parseInstant, serializeInstant } from './lib/timeRange.ts';
import { useApi } from './state/ApiContext.tsx';
import { useAdaptiveRouting } from './state/useAdaptiveRouting.ts';
import type { ApiLoad } from './state/useApiQuery.ts';
import { useFabricStream } from './state/useFabricStream.ts';
import { useFaults } from './state/useFaults.ts';
import { useEvents, useHistoryWindow } from './state/useHistoryWindow.ts';
import { useLiveAnswer } from './state/useLiveAnswer.ts';
import { usePastSnapshot } from './state/usePastSnapshot.ts';
import { useRemote } from './state/useRemote.ts';
import { useTimeTravel } from './state/useTimeTravel.ts';
import { useTopology } from './state/useTopology.ts';
import { useTraffic } from './state/useTraffic.ts';
import { useUrlParam } from './state/useUrlState.ts';

const serializeKind = (kind: KindFilter): string | null => (kind === 'all' ? null : kind);
const serializeTopN = (n: number): string | null => (n === DEFAULT_TOP_N ? null : String(n));
const serializeSort = (s: SortKey): string | null => (s === 'utilization' ? null : s);
const serializeSeverity = (s: string): string | null => (s === 'warning' ? null : s);

type Tool = 'route' | 'static' | 'port' | 'link' | 'jobs' | 'contention' | 'faults';
const TOOLS: readonly TabDef<Tool>[] = [
  { key: 'route', label: 'Route' },
  { key: 'static', label: 'Static routes' },
  { key: 'port', label: 'Port' },
  { key: 'link', label: 'Link' },
  { key: 'jobs', label: 'Jobs' },
  { key: 'contention', label: 'Contention' },
  { key: 'faults', label: 'Faults' },
];
const parseTool = (raw: string | null): Tool =>
  raw === 'contention' ||
  raw === 'faults' ||
  raw === 'link' ||
  raw === 'jobs' ||
  raw === 'static' ||
  raw === 'port'
    ? raw
    : 'route';
const serializeTool = (tool: Tool): string | null => (tool === 'route' ? null : tool);

const EMPTY_DRAFT: PatternDraft = { kind: 'shift', arg: '1' };
const SEED_DRAFT = pairsDraft(SEED_PAIRS);
const jobDetailLoad =
  (id: string): ApiLoad<JobDetail> =>
  (api, signal) =>
    api.getJob(id, signal);

export function App() {
  const api = useApi();
  const { topology, reload: reloadTopology, refresh: refreshTopology } = useTopology();
  // Fabrics too big for per-link objects get the compact stream (per-channel arrays + the top);
  // the stream waits for the topology, so a big fabric never receives a full message.
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
  const ar = useAdaptiveRouting();
  const liveSnapshot = stream.snapshot;
  // Time travel: when an instant is chosen, every data view shows it instead of the live stream.
  const time = useTimeTravel(liveSnapshot?.time ?? null, liveSnapshot?.health.intervalMs);
  const past = usePastSnapshot(time.atMs, time.latestMs, fabric, liveSnapshot?.health ?? null);
  const snapshot = time.atMs === null ? liveSnapshot : past.state.status === 'ready' ? past.state.data : null;
  const history = useHistoryWindow(time.range, time.atMs, time.latestMs, time.tickSeconds);
  const events = useEvents(history.window);
  const [links, setLinks] = useUrlParam('links', parseLinkSelection, serializeLinkSelection);
  const openHistory = useCallback((id: string) => setLinks(selectLink(links, id)), [links, setLinks]);
  const [beforeMs, setBeforeMs] = useUrlParam('before', parseInstant, serializeInstant);
  const [afterMs, setAfterMs] = useUrlParam('after', parseInstant, serializeInstant);
  const lastArChangeMs =
    events.status === 'ready'
      ? (events.data.events
          .filter((e) => e.kind === 'adaptive-routing')
          .map((e) => parseInstant(e.time))
          .filter((ms): ms is number => ms !== null)
          .sort((a, b) => b - a)[0] ?? null)
      : null;
  const traffic = useTraffic(liveSnapshot?.time ?? null);
  const [kind, setKind] = useUrlParam('kind', parseKindFilter, serializeKind);
  const [topN, setTopN] = useUrlParam('top', parseTopN, serializeTopN);
  const [sort, setSort] = useUrlParam('sort', parseSortKey, serializeSort);
  const [tool, setTool] = useUrlParam('tool', parseTool, serializeTool);
  const [severity, setSeverity] = useUrlParam('severity', parseSeverity, serializeSeverity);
  const [eventKinds, setEventKinds] = useUrlParam('events', parseEventKinds, serializeEventKinds);
  const eventFilter = useMemo(
    (): EventFilter => ({ minSeverity: severity, kinds: eventKinds }),
    [severity, eventKinds],
  );
  const setEventFilter = useCallback(
    (f: EventFilter) => {
      setSeverity(f.minSeverity);
      setEventKinds(f.kinds);
    },
    [setSeverity, setEventKinds],
  );
  const [from, setFrom] = useUrlParam('from', parseNodeParam, serializeNodeParam);
  const [to, setTo] = useUrlParam('to', parseNodeParam, serializeNodeParam);
  const [pattern, setPattern] = useUrlParam('pattern', parseNodeParam, serializeNodeParam);
  const [link, setLink] = useUrlParam('link', parseNodeParam, serializeNodeParam);
  const [job, setJob] = useUrlParam('job', parseNodeParam, serializeNodeParam);
  // A port's or node's page (`?tool=port&port=edge1/4`), from the search box or the Link tab.
  const [portTarget, setPortTarget] = useUrlParam('port', parseNodeParam, serializeNodeParam);
  const openPort = useCallback(
    (text: string | null) => {
      setPortTarget(text);
      if (text !== null) setTool('port');
    },
    [setPortTarget, setTool],
  );
  const liveTick = liveSnapshot?.time ?? null;
  // A click on a link or heatmap cell: its flows and jobs in the Link tab, its history below.
  const selectChannel = useCallback(
    (id: string) => {
      setLink(id);
      setTool('link');
      openHistory(id);
    },
    [setLink, setTool, openHistory],
  );
  const selectJob = useCallback(
    (id: string | null) => {
      setJob(id);
      if (id !== null) setTool('jobs');
    },
    [setJob, setTool],
  );

  // Route: asked for while the Route tab is open and both ends are chosen; drawn on the fabric.
  const loadRoute = useMemo(
    () =>
      tool === 'route' && from && to && from !== to
        ? (signal: AbortSignal) => api.getRoute(from, to, signal)
        : null,
    [api, tool, from, to],
  );
  const route = useRemote(loadRoute);
  // The live path moves with adaptive routing: re-read while a flow carries it, on stream ticks.
  const routeLive = route.state.status === 'ready' && route.state.data.source === 'flow';
  const routeBucket = liveTick === null ? 0 : Math.floor(Date.parse(liveTick) / 2000);
  const reloadRoute = route.reload;
  useEffect(() => {
    void routeBucket;
    if (routeLive) reloadRoute();
  }, [routeBucket, routeLive, reloadRoute]);
  const jobDetail = useLiveAnswer(
    ['job', job],
    tool === 'jobs' && job !== null ? jobDetailLoad(job) : null,
    liveTick,
  );
  const shownJob =
    tool === 'jobs' && jobDetail.status === 'ready' && jobDetail.data.job.id === job
      ? jobHighlight(jobDetail.data)
      : null;
  const shownRoute = shownJob ?? (route.state.status === 'ready' ? route.state.data : null);

  const [analysisHosts, setAnalysisHosts] = useUrlParam('hosts', parseNodeParam, serializeNodeParam);
  const loadAnalysis = useMemo(
    () =>
      tool === 'contention' && pattern
        ? (signal: AbortSignal) => api.postAnalysis(pattern, analysisHosts, signal)
        : null,
    [api, tool, pattern, analysisHosts],
  );
  const analysis = useRemote(loadAnalysis);
  const faults = useFaults(tool === 'faults', liveSnapshot?.time ?? null);

  const samples = useMemo(
    () =>
      snapshot && !isCompact(snapshot)
        ? new Map<string, LinkDirectionState>(snapshot.links.map((l) => [l.id, l]))
        : null,
    [snapshot],
  );
  const compact = snapshot && isCompact(snapshot) ? snapshot : null;
  const ranked = snapshot ? rankableLinks(snapshot) : null;
  const channelIndex = useMemo(() => (fabric ? channelIndexById(fabric) : null), [fabric]);
  const linkLoad =
    link === null
      ? null
      : (samples?.get(link) ??
        (compact && fabric && channelIndex ? compactLoad(fabric, channelIndex, compact, link) : null));
  const endpoints = useMemo(() => endpointNames(fabric), [fabric]);
  const isls = useMemo(() => islChoices(fabric), [fabric]);
  const unmeasured = useMemo(() => (fabric ? unmeasuredCables(fabric) : undefined), [fabric]);
  const downNow = snapshot
    ? isCompact(snapshot)
      ? fabric
        ? downLinkIdsCompact(fabric, snapshot.linkDown)
        : []
      : downLinkIds(snapshot.links)
    : [];
  const seedAvailable = hasSeedHosts(fabric);
  const reloadAnalysis = analysis.reload;
  const onCheck = useCallback(
    (p: string, h: string | null) => {
      if (p === pattern && h === analysisHosts) return reloadAnalysis();
      setPattern(p);
      setAnalysisHosts(h);
    },
    [pattern, analysisHosts, reloadAnalysis, setPattern, setAnalysisHosts],
  );

  // Stale as of the last message, or because the stream went silent (the header shows live ages).
  const stale =
    stream.silent ||
    (liveSnapshot !== null &&
      assessFreshness({
        nowMs: stream.receivedAtMs ?? 0,
        receivedAtMs: stream.receivedAtMs,
        lastSampleAgeSeconds: liveSnapshot.health.lastSampleAgeSeconds,
        staleLinkCount: staleDirectionCount(liveSnapshot),
        policy: liveSnapshot.health,
      }).state === 'stale');

  return (
    <div className={`app ${stale ? 'is-stale' : ''}`} data-stale={stale ? 'true' : 'false'}>
      <div className="app-top">
        <Header
          topology={topology}
          snapshot={liveSnapshot}
          receivedAtMs={stream.receivedAtMs}
          connection={stream.connection}
          silent={stream.silent}
          streamError={stream.error}
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
          nowMs={time.latestMs ?? Date.now()}
        />
      </div>
      <main
        className={`grid ${time.atMs === null ? '' : 'is-past'}`}
        data-viewing={time.atMs === null ? 'live' : 'past'}
      >
        <Panel title="Fabric" className="area-tree data-view">
          <FatTreeView
            topology={topology}
            samples={samples}
            compact={compact}
            route={shownRoute}
            onRetry={reloadTopology}
            onSelectChannel={selectChannel}
          />
        </Panel>
        <Panel title="Summary" className="area-summary data-view">
          <SummaryPanel
            summary={snapshot?.summary ?? null}
            links={ranked?.links ?? null}
            onSelectLink={selectChannel}
            hasIsls={fabric ? fabric.links.some((l) => l.kind === 'isl') : true}
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
            hasWait={fabric ? anyNetworkHas(networkTypes(fabric), 'waitCounter') : true}
            unmeasured={unmeasured}
            links={ranked?.links ?? null}
            totalDirections={ranked?.total ?? null}
            partial={ranked?.partial ?? false}
            kind={kind}
            topN={topN}
            sort={sort}
            onKindChange={setKind}
            onTopNChange={setTopN}
            onSortChange={setSort}
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
            onSelectWindow={(w) => time.setRange({ kind: 'custom', ...w })}
            onCloseLink={(id) => setLinks(links.filter((l) => l !== id))}
            onWidth={history.setWidth}
            nowMs={time.latestMs ?? Date.now()}
          />
        </Panel>
        <Panel title="Before / after" className="area-compare">
          <BeforeAfterPanel
            beforeMs={beforeMs}
            afterMs={afterMs}
            onChange={(which, ms) => (which === 'before' ? setBeforeMs(ms) : setAfterMs(ms))}
            onChangeBoth={(b, a) => {
              setBeforeMs(b);
              setAfterMs(a);
            }}
            shownMs={time.atMs ?? time.latestMs}
            latestMs={time.latestMs}
            lastArChangeMs={lastArChangeMs}
            tickSeconds={time.tickSeconds}
            onOpenHistory={openHistory}
            nowMs={time.latestMs ?? Date.now()}
          />
        </Panel>
        <Panel title="Investigate" className="area-tools">
          <PortSearch onTarget={openPort} />
          <Tabs label="Investigate" tabs={TOOLS} selected={tool} onSelect={setTool}>
            {tool === 'port' && (
              <PortPanel
                target={portTarget}
                onTarget={openPort}
                tick={liveTick}
                onOpenHistory={openHistory}
                onSelectLink={selectChannel}
              />
            )}
            {tool === 'route' && (
              <RoutePanel
                endpoints={endpoints}
                from={from}
                to={to}
                onFromChange={setFrom}
                onToChange={setTo}
                route={route.state}
                onRetry={route.reload}
              />
            )}
            {tool === 'static' && <StaticLoadPanel tick={liveTick} onSelectLink={selectChannel} />}
            {tool === 'link' && (
              <LinkFlowsPanel
                link={link}
                sample={linkLoad}
                tick={liveTick}
                onSelectJob={selectJob}
                onOpenHistory={openHistory}
                onOpenPort={openPort}
                onClose={() => setLink(null)}
              />
            )}
            {tool === 'jobs' && (
              <JobsPanel selected={job} onSelect={selectJob} tick={liveTick} onSelectLink={selectChannel} />
            )}
            {tool === 'contention' && (
              <ContentionPanel
                // Defaults come from the fabric shown: the seed pairs only where nodeA…nodeD exist.
                key={fabric?.name ?? 'loading'}
                defaultDraft={fabric && hasSeedHosts(fabric) ? SEED_DRAFT : EMPTY_DRAFT}
                pattern={pattern}
                hosts={analysisHosts}
                onCheck={onCheck}
                analysis={analysis.state}
                traffic={traffic}
              />
            )}
            {tool === 'faults' && (
              <FaultsPanel
                links={isls}
                faults={faults}
                downNow={downNow}
                nowMs={liveSnapshot ? Date.parse(liveSnapshot.time) : null}
              />
            )}
          </Tabs>
        </Panel>
      </main>
    </div>
  );
}
