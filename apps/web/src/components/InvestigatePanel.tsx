import { memo, useCallback, useMemo } from 'react';
import type { CompactSnapshot, LinkDirectionState, LiveSnapshot, Route, Topology } from '../api/types.ts';
import { isCompact } from '../api/types.ts';
import { type PatternDraft, pairsDraft } from '../lib/contention.ts';
import { downLinkIds, downLinkIdsCompact, islChoices } from '../lib/faults.ts';
import { hasSeedHosts, SEED_PAIRS } from '../lib/flows.ts';
import { channelIndexById, compactLoad, endpointNames } from '../lib/route.ts';
import { type ApiAnswer, useApiQuery } from '../state/useApiQuery.ts';
import { useFaults } from '../state/useFaults.ts';
import type { TrafficState } from '../state/useTraffic.ts';
import type { InvestigateView, Tool } from '../state/viewState.ts';
import { ContentionPanel } from './ContentionPanel.tsx';
import { FaultsPanel } from './FaultsPanel.tsx';
import { JobsPanel } from './JobsPanel.tsx';
import { LinkFlowsPanel } from './LinkFlowsPanel.tsx';
import { Panel } from './Panel.tsx';
import { PortPanel, PortSearch } from './PortPanel.tsx';
import { RoutePanel } from './RoutePanel.tsx';
import { StaticLoadPanel } from './StaticLoadPanel.tsx';
import { type TabDef, Tabs } from './Tabs.tsx';

const TOOLS: readonly TabDef<Tool>[] = [
  { key: 'route', label: 'Route' },
  { key: 'static', label: 'Static routes' },
  { key: 'port', label: 'Port' },
  { key: 'link', label: 'Link' },
  { key: 'jobs', label: 'Jobs' },
  { key: 'contention', label: 'Contention' },
  { key: 'faults', label: 'Faults' },
];

const EMPTY_DRAFT: PatternDraft = { kind: 'shift', arg: '1' };
const SEED_DRAFT = pairsDraft(SEED_PAIRS);

interface InvestigatePanelProps {
  view: InvestigateView;
  fabric: Topology | null;
  /** What the data panels show (live, or the instant chosen): the links down in it. */
  snapshot: LiveSnapshot | null;
  /** The live stream's newest message: the tools act on the fabric now. */
  liveSnapshot: LiveSnapshot | null;
  /** The shown snapshot's directions by id (full encoding), or its compact form. */
  samples: ReadonlyMap<string, LinkDirectionState> | null;
  compact: CompactSnapshot | null;
  liveTick: string | null;
  route: ApiAnswer<Route>;
  traffic: TrafficState;
}

/**
 * The Investigate panel: a search box that opens a port's page, and one tab per tool — a route,
 * static route load, a port, a link's flows, jobs, a pattern's contention, faults. Each tab asks
 * the API only while it is open.
 */
export const InvestigatePanel = memo(function InvestigatePanel({
  view,
  fabric,
  snapshot,
  liveSnapshot,
  samples,
  compact,
  liveTick,
  route,
  traffic,
}: InvestigatePanelProps) {
  const { tool, link } = view;
  const analysis = useApiQuery(
    ['analysis', view.pattern, view.hosts],
    tool === 'contention' && view.pattern
      ? (api, signal) => api.postAnalysis(view.pattern as string, view.hosts, signal)
      : null,
    { forget: true },
  );
  const faults = useFaults(tool === 'faults', liveTick);

  const channelIndex = useMemo(() => (fabric ? channelIndexById(fabric) : null), [fabric]);
  const linkLoad =
    link === null
      ? null
      : (samples?.get(link) ??
        (compact && fabric && channelIndex ? compactLoad(fabric, channelIndex, compact, link) : null));
  const endpoints = useMemo(() => endpointNames(fabric), [fabric]);
  const isls = useMemo(() => islChoices(fabric), [fabric]);
  const downNow = snapshot
    ? isCompact(snapshot)
      ? fabric
        ? downLinkIdsCompact(fabric, snapshot.linkDown)
        : []
      : downLinkIds(snapshot.links)
    : [];
  const { pattern, hosts, setCheck } = view;
  const reloadAnalysis = analysis.reload;
  const onCheck = useCallback(
    (p: string, h: string | null) => {
      if (p === pattern && h === hosts) return reloadAnalysis();
      setCheck(p, h);
    },
    [pattern, hosts, reloadAnalysis, setCheck],
  );

  return (
    <Panel title="Investigate" className="area-tools">
      <PortSearch onTarget={view.openPort} />
      <Tabs label="Investigate" tabs={TOOLS} selected={tool} onSelect={view.setTool}>
        {tool === 'port' && (
          <PortPanel
            target={view.port}
            onTarget={view.openPort}
            tick={liveTick}
            onOpenHistory={view.openHistory}
            onSelectLink={view.selectChannel}
          />
        )}
        {tool === 'route' && (
          <RoutePanel
            endpoints={endpoints}
            from={view.from}
            to={view.to}
            onFromChange={view.setFrom}
            onToChange={view.setTo}
            route={route}
            onRetry={route.reload}
          />
        )}
        {tool === 'static' && <StaticLoadPanel tick={liveTick} onSelectLink={view.selectChannel} />}
        {tool === 'link' && (
          <LinkFlowsPanel
            link={link}
            sample={linkLoad}
            tick={liveTick}
            onSelectJob={view.selectJob}
            onOpenHistory={view.openHistory}
            onOpenPort={view.openPort}
            onClose={() => view.setLink(null)}
          />
        )}
        {tool === 'jobs' && (
          <JobsPanel
            selected={view.job}
            onSelect={view.selectJob}
            tick={liveTick}
            onSelectLink={view.selectChannel}
          />
        )}
        {tool === 'contention' && (
          <ContentionPanel
            // Defaults come from the fabric shown: the seed pairs only where nodeA…nodeD exist.
            key={fabric?.name ?? 'loading'}
            defaultDraft={fabric && hasSeedHosts(fabric) ? SEED_DRAFT : EMPTY_DRAFT}
            pattern={pattern}
            hosts={hosts}
            onCheck={onCheck}
            analysis={analysis}
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
  );
});
