import { type ComponentProps, memo, type ReactNode, useCallback, useMemo } from 'react';
import { Panel } from './components/Panel.tsx';
import { EventsPanel } from './features/alarms/EventsPanel.tsx';
import { FatTreeView } from './features/fat-tree/FatTreeView.tsx';
import { Header } from './features/header/Header.tsx';
import { SummaryPanel } from './features/health/SummaryPanel.tsx';
import { HistoryPanel } from './features/history/HistoryPanel.tsx';
import type { TailPoint } from './features/history/historyTail.ts';
import { useEvents } from './features/history/useEvents.ts';
import {
  type HistoryWindowSpec,
  historyWindowAt,
  useHistoryWindow,
  useSummaryTail,
} from './features/history/useHistoryWindow.ts';
import { LinkTable } from './features/links/LinkTable.tsx';
import { BeforeAfterPanel } from './features/time-travel/BeforeAfterPanel.tsx';
import { TimeBar } from './features/time-travel/TimeBar.tsx';
import { lastChangeMs } from './lib/events.ts';
import { latestMsOf, useLiveSelector, useLiveStream } from './state/liveStream.ts';
import { snapshotCompact, snapshotRanked, snapshotSamples, useShownSnapshot } from './state/shownSnapshot.ts';

/** The panels that read the live stream themselves, so a message re-renders them, not the dashboard. */

/** The header, re-rendered by each stream message (the data's age). */
export const LiveHeader = memo(function LiveHeader({
  topology,
  atMs,
}: {
  topology: ComponentProps<typeof Header>['topology'];
  atMs: number | null;
}) {
  const stream = useLiveSelector((s) => s);
  return <Header topology={topology} atMs={atMs} {...stream} />;
});

/** The time bar: it reads the newest sample on each message only while a past instant is shown. */
export const LiveTimeBar = memo(function LiveTimeBar({
  todayMs,
  history,
  ...props
}: Omit<ComponentProps<typeof TimeBar>, 'nowMs' | 'windowNow'> & {
  todayMs: number;
  history: HistoryWindowSpec;
}) {
  const stream = useLiveStream();
  const latestMs = useLiveSelector((s) => (props.atMs === null ? null : latestMsOf(s)));
  // Before the first message, now is the browser's (read at render: a selection must stay put).
  const nowMs = props.atMs === null ? todayMs : (latestMs ?? Date.now());
  const windowNow = useCallback(() => historyWindowAt(history, latestMsOf(stream.get())), [history, stream]);
  return <TimeBar {...props} windowNow={windowNow} nowMs={nowMs} />;
});

/** The fabric drawing (or heatmap) of the instant shown. */
export const ShownFatTreeView = memo(function ShownFatTreeView(
  props: Omit<ComponentProps<typeof FatTreeView>, 'samples' | 'compact'>,
) {
  const snapshot = useShownSnapshot();
  return <FatTreeView {...props} samples={snapshotSamples(snapshot)} compact={snapshotCompact(snapshot)} />;
});

export const ShownSummaryPanel = memo(function ShownSummaryPanel(
  props: Omit<ComponentProps<typeof SummaryPanel>, 'summary' | 'links'>,
) {
  const snapshot = useShownSnapshot();
  return (
    <SummaryPanel
      {...props}
      summary={snapshot?.summary ?? null}
      links={snapshotRanked(snapshot)?.links ?? null}
    />
  );
});

export const ShownLinkTable = memo(function ShownLinkTable(
  props: Omit<ComponentProps<typeof LinkTable>, 'links' | 'totalDirections' | 'partial'>,
) {
  const ranked = snapshotRanked(useShownSnapshot());
  return (
    <LinkTable
      {...props}
      links={ranked?.links ?? null}
      totalDirections={ranked?.total ?? null}
      partial={ranked?.partial ?? false}
    />
  );
});

/** The before/after comparison: a message re-renders it only while two instants are compared. */
export const LiveBeforeAfterPanel = memo(function LiveBeforeAfterPanel({
  atMs,
  ...props
}: Omit<ComponentProps<typeof BeforeAfterPanel>, 'latestMs' | 'shownNow' | 'latestNow'> & {
  atMs: number | null;
}) {
  const stream = useLiveStream();
  const comparing = props.beforeMs !== null || props.afterMs !== null;
  const latestMs = useLiveSelector((s) => (comparing ? latestMsOf(s) : null));
  const anyShown = useLiveSelector((s) => atMs !== null || s.snapshot !== null);
  const latestNow = useCallback(() => latestMsOf(stream.get()), [stream]);
  const shownNow = useCallback(() => atMs ?? latestMsOf(stream.get()), [atMs, stream]);
  return (
    <BeforeAfterPanel
      {...props}
      latestMs={latestMs}
      shownNow={anyShown ? shownNow : null}
      latestNow={latestNow}
    />
  );
});

const NO_TAIL: readonly TailPoint[] = [];

/** The history window's panels in grid order; the window and its events are made once for all three. */
export const LiveWindowPanels = memo(function LiveWindowPanels({
  history,
  alarms,
  between,
  events: eventsProps,
  chart,
  compare,
}: {
  history: HistoryWindowSpec;
  alarms: ReactNode;
  between: ReactNode;
  events: Omit<ComponentProps<typeof EventsPanel>, 'events'>;
  chart: Omit<
    ComponentProps<typeof HistoryPanel>,
    'window' | 'asked' | 'tail' | 'step' | 'atMs' | 'events' | 'eventFilter'
  >;
  compare: Omit<ComponentProps<typeof LiveBeforeAfterPanel>, 'atMs' | 'lastArChangeMs'>;
}) {
  const tail = useSummaryTail();
  const { window, step, asked, follows } = useHistoryWindow(history, tail[0]?.timeMs ?? null);
  const events = useEvents(window, asked, follows);
  const list = events.status === 'ready' ? events.data.events : null;
  const lastArChangeMs = useMemo(() => (list ? lastChangeMs(list, 'adaptive-routing') : null), [list]);
  return (
    <>
      <Panel title="Events" className="area-events">
        {alarms}
        <EventsPanel {...eventsProps} events={events} />
      </Panel>
      {between}
      <Panel title="History" className="area-history">
        <HistoryPanel
          {...chart}
          window={window}
          asked={asked}
          tail={follows ? tail : NO_TAIL}
          step={step}
          atMs={history.atMs}
          events={events}
          eventFilter={eventsProps.filter}
        />
      </Panel>
      <Panel title="Before / after" className="area-compare">
        <LiveBeforeAfterPanel {...compare} atMs={history.atMs} lastArChangeMs={lastArChangeMs} />
      </Panel>
    </>
  );
});
