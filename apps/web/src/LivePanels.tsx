import { type ComponentProps, memo, type ReactNode, useCallback, useMemo } from 'react';
import { Panel } from './components/Panel.tsx';
import { EventsPanel } from './features/alarms/EventsPanel.tsx';
import { FatTreeView } from './features/fat-tree/FatTreeView.tsx';
import { Header } from './features/header/Header.tsx';
import { SummaryPanel } from './features/health/SummaryPanel.tsx';
import { HistoryPanel } from './features/history/HistoryPanel.tsx';
import type { TailPoint } from './features/history/historyTail.ts';
import {
  type HistoryWindowSpec,
  historyWindowAt,
  useEvents,
  useHistoryWindow,
  useSummaryTail,
} from './features/history/useHistoryWindow.ts';
import { LinkTable } from './features/links/LinkTable.tsx';
import { BeforeAfterPanel } from './features/time-travel/BeforeAfterPanel.tsx';
import { TimeBar } from './features/time-travel/TimeBar.tsx';
import { lastChangeMs } from './lib/events.ts';
import { latestMsOf, useLiveSelector, useLiveStream } from './state/liveStream.ts';
import { snapshotCompact, snapshotRanked, snapshotSamples, useShownSnapshot } from './state/shownSnapshot.ts';

/**
 * The panels that draw the live stream's messages, each reading the stream itself
 * (state/liveStream.ts): a message re-renders them — and only them, not the dashboard around them.
 * Each gives the panel it wraps the props it had from the dashboard before. So do the panels of
 * the history window, which moves with the newest sample (LiveWindowPanels, useHistoryWindow): the
 * window is made from the dashboard's HistoryWindowSpec here, not in the dashboard.
 */

/** The header, re-rendered by each stream message (the data's age). */
export const LiveHeader = memo(function LiveHeader({
  topology,
}: {
  topology: ComponentProps<typeof Header>['topology'];
}) {
  const stream = useLiveSelector((s) => s);
  return (
    <Header
      topology={topology}
      snapshot={stream.snapshot}
      receivedAtMs={stream.receivedAtMs}
      connection={stream.connection}
      silent={stream.silent}
      streamError={stream.error}
    />
  );
});

/**
 * The time bar: live, its clock labels need only the day; a past instant says how long before live
 * (the newest sample, read here on each message only then). The history window, where a custom
 * range starts, is read when one is opened.
 */
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

/** The summary of the instant shown. */
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

/** The ranking of the instant shown. */
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

/**
 * The before/after comparison: the newest sample matters to it only while two instants are being
 * compared (one after it is not asked yet), so only then does a message re-render it; "use instant
 * shown" and "around the last AR change" read the stream when clicked.
 */
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

/**
 * The panels of the history window, in their grid areas and in this order: the events (below
 * `alarms`), `between` (panels of their own), the history and the before/after comparison. The
 * window moves with the newest sample; this makes it (useHistoryWindow) and asks its events once
 * for the three, so a move re-renders this and what the move changed — the history's chart, the
 * events only when they changed (useEvents keeps equal answers) — and nothing around it. The
 * total chart's newest points are the stream's (useSummaryTail), read when the window moves.
 */
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
