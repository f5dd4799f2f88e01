import type { Topology } from '@fabscope/contracts';
import { type ComponentProps, memo, useCallback, useMemo } from 'react';
import type { Route } from '../../api/types.ts';
import { Panel } from '../../components/Panel.tsx';
import { isCompact } from '../../lib/channelValues.ts';
import { hasSeedHosts, SEED_PAIRS } from '../../lib/flows.ts';
import { channelIndexById, compactLoad, endpointNames } from '../../lib/route.ts';
import {
  snapshotCompact,
  snapshotSamples,
  useLiveSnapshot,
  useShownSnapshot,
} from '../../state/shownSnapshot.ts';
import { type ApiAnswer, useApiQuery } from '../../state/useApiQuery.ts';
import { useTraffic } from '../../state/useTraffic.ts';
import type { InvestigateView, Tool } from '../../state/viewState.ts';
import { ContentionPanel } from './contention/ContentionPanel.tsx';
import { type PatternDraft, pairsDraft } from './contention/contention.ts';
import { FaultsPanel } from './faults/FaultsPanel.tsx';
import { downLinkIds, downLinkIdsCompact, islChoices } from './faults/faults.ts';
import { useFaults } from './faults/useFaults.ts';
import { JobsPanel } from './jobs/JobsPanel.tsx';
import { LinkFlowsPanel } from './link-flows/LinkFlowsPanel.tsx';
import { PortPanel, PortSearch } from './port/PortPanel.tsx';
import { RoutePanel } from './route/RoutePanel.tsx';
import { StaticLoadPanel } from './static-load/StaticLoadPanel.tsx';
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
  route: ApiAnswer<Route>;
  /** Time travel to an instant (ms): a job report's evidence opens there. */
  onTravel?: (ms: number) => void;
}

const NO_ENDPOINTS: string[] = [];

/** A port search and one tab per tool; a tab asks the API only while open. */
export const InvestigatePanel = memo(function InvestigatePanel({
  view,
  fabric,
  route,
  onTravel,
}: InvestigatePanelProps) {
  const { tool, link } = view;
  const { selectChannel } = view;
  const openEvidence = useCallback(
    (e: { time: string; direction: string }) => {
      const ms = Date.parse(e.time);
      if (onTravel && !Number.isNaN(ms)) onTravel(ms);
      selectChannel(e.direction);
    },
    [onTravel, selectChannel],
  );
  const analysis = useApiQuery(
    ['analysis', view.pattern, view.hosts],
    tool === 'contention' && view.pattern
      ? (api, signal) => api.postAnalysis(view.pattern as string, view.hosts, signal)
      : null,
    { forget: true },
  );
  const faults = useFaults(tool === 'faults');

  // The hosts to route between, made only while the route tool is open (many on a big fabric).
  const endpoints = useMemo(() => (tool === 'route' ? endpointNames(fabric) : NO_ENDPOINTS), [tool, fabric]);
  const { setLink } = view;
  const closeLink = useCallback(() => setLink(null), [setLink]);
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
        {tool === 'static' && <StaticLoadPanel onSelectLink={view.selectChannel} />}
        {tool === 'link' && (
          <LinkTab
            fabric={fabric}
            link={link}
            onSelectJob={view.selectJob}
            onOpenHistory={view.openHistory}
            onOpenPort={view.openPort}
            onClose={closeLink}
          />
        )}
        {tool === 'jobs' && (
          <JobsPanel
            selected={view.job}
            onSelect={view.selectJob}
            onSelectLink={view.selectChannel}
            onEvidence={openEvidence}
          />
        )}
        {tool === 'contention' &&
          (fabric ? (
            <ContentionTab
              // Made once the fabric is known: keying it on arrival lost a chosen pattern.
              key={fabric.name}
              defaultDraft={hasSeedHosts(fabric) ? SEED_DRAFT : EMPTY_DRAFT}
              pattern={pattern}
              hosts={hosts}
              onCheck={onCheck}
              analysis={analysis}
            />
          ) : (
            <p className="placeholder">Loading the fabric…</p>
          ))}
        {tool === 'faults' && <FaultsTab fabric={fabric} faults={faults} />}
      </Tabs>
    </Panel>
  );
});

/** The contention check, beside every flow's measured rate (the largest page of the flows). */
function ContentionTab(props: Omit<ComponentProps<typeof ContentionPanel>, 'traffic'>) {
  const traffic = useTraffic(true);
  return <ContentionPanel {...props} traffic={traffic} />;
}

/** The Link tab: the selected direction's load in the instant shown, re-read on each message. */
function LinkTab({
  fabric,
  link,
  ...props
}: Omit<ComponentProps<typeof LinkFlowsPanel>, 'sample'> & { fabric: Topology | null }) {
  const snapshot = useShownSnapshot();
  const samples = snapshotSamples(snapshot);
  const compact = snapshotCompact(snapshot);
  const sample =
    link === null
      ? null
      : (samples?.get(link) ??
        (compact && fabric ? compactLoad(fabric, channelIndexById(fabric), compact, link) : null));
  return <LinkFlowsPanel {...props} link={link} sample={sample} />;
}

/** The Faults tab: the links down in the instant shown, and the emulator's clock now (the newest message). */
function FaultsTab({
  fabric,
  ...props
}: Omit<ComponentProps<typeof FaultsPanel>, 'downNow' | 'nowMs' | 'links'> & { fabric: Topology | null }) {
  // Made while the tab is open (many cables on a big fabric).
  const links = useMemo(() => islChoices(fabric), [fabric]);
  const snapshot = useShownSnapshot();
  const live = useLiveSnapshot();
  const downNow = snapshot
    ? isCompact(snapshot)
      ? fabric
        ? downLinkIdsCompact(fabric, snapshot.linkDown)
        : []
      : downLinkIds(snapshot.links)
    : [];
  return (
    <FaultsPanel {...props} links={links} downNow={downNow} nowMs={live ? Date.parse(live.time) : null} />
  );
}
