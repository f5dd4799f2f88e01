import type { EventSeverity } from '@fabscope/contracts';
import { useCallback, useMemo } from 'react';
import { type EventFilter, parseEventKinds, parseSeverity, serializeEventKinds } from '../lib/events.ts';
import { parseLinkSelection, selectLink, serializeLinkSelection } from '../lib/linkSelection.ts';
import {
  DEFAULT_TOP_N,
  type KindFilter,
  parseKindFilter,
  parseSortKey,
  parseTopN,
  type SortKey,
} from '../lib/ranking.ts';
import { parseNodeParam, serializeNodeParam } from '../lib/route.ts';
import { parseInstant, serializeInstant } from '../lib/timeRange.ts';
import { useUrlParam } from './useUrlState.ts';

/** The shareable view state in the URL; defaults leave the URL clean. */

export type Tool = 'route' | 'static' | 'port' | 'link' | 'jobs' | 'contention' | 'faults';
const TOOLS: readonly Tool[] = ['route', 'static', 'port', 'link', 'jobs', 'contention', 'faults'];
export const parseTool = (raw: string | null): Tool => TOOLS.find((t) => t === raw) ?? 'route';
const serializeTool = (tool: Tool): string | null => (tool === 'route' ? null : tool);
const serializeKind = (kind: KindFilter): string | null => (kind === 'all' ? null : kind);
const serializeTopN = (n: number): string | null => (n === DEFAULT_TOP_N ? null : String(n));
const serializeSort = (s: SortKey): string | null => (s === 'utilization' ? null : s);
const serializeSeverity = (s: EventSeverity): string | null => (s === 'warning' ? null : s);

/** The link table: `?kind=isl&top=20&sort=integrity`. */
export function useRankingView() {
  const [kind, setKind] = useUrlParam('kind', parseKindFilter, serializeKind);
  const [topN, setTopN] = useUrlParam('top', parseTopN, serializeTopN);
  const [sort, setSort] = useUrlParam('sort', parseSortKey, serializeSort);
  return { kind, topN, sort, setKind, setTopN, setSort };
}

/** The events filter: `?severity=info&events=threshold,fault`. */
export function useEventFilter(): [EventFilter, (filter: EventFilter) => void] {
  const [severity, setSeverity] = useUrlParam('severity', parseSeverity, serializeSeverity);
  const [kinds, setKinds] = useUrlParam('events', parseEventKinds, serializeEventKinds);
  const filter = useMemo((): EventFilter => ({ minSeverity: severity, kinds }), [severity, kinds]);
  const setFilter = useCallback(
    (f: EventFilter) => {
      setSeverity(f.minSeverity);
      setKinds(f.kinds);
    },
    [setSeverity, setKinds],
  );
  return [filter, setFilter];
}

/** Before/after's two instants: `?before=…&after=…`. */
export function useCompareView() {
  const [beforeMs, setBeforeMs] = useUrlParam('before', parseInstant, serializeInstant);
  const [afterMs, setAfterMs] = useUrlParam('after', parseInstant, serializeInstant);
  return { beforeMs, afterMs, setBeforeMs, setAfterMs };
}

export type CompareView = ReturnType<typeof useCompareView>;

/** What the Investigate panel and the history show (`?tool=…`, `?links=…`). */
export function useInvestigateView() {
  const [tool, setTool] = useUrlParam('tool', parseTool, serializeTool);
  const [from, setFrom] = useUrlParam('from', parseNodeParam, serializeNodeParam);
  const [to, setTo] = useUrlParam('to', parseNodeParam, serializeNodeParam);
  const [pattern, setPattern] = useUrlParam('pattern', parseNodeParam, serializeNodeParam);
  const [hosts, setHosts] = useUrlParam('hosts', parseNodeParam, serializeNodeParam);
  const [link, setLink] = useUrlParam('link', parseNodeParam, serializeNodeParam);
  const [job, setJob] = useUrlParam('job', parseNodeParam, serializeNodeParam);
  const [port, setPort] = useUrlParam('port', parseNodeParam, serializeNodeParam);
  const [links, setLinks] = useUrlParam('links', parseLinkSelection, serializeLinkSelection);

  const setCheck = useCallback(
    (p: string | null, h: string | null) => {
      setPattern(p);
      setHosts(h);
    },
    [setPattern, setHosts],
  );
  const openHistory = useCallback((id: string) => setLinks(selectLink(links, id)), [links, setLinks]);
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
  const openPort = useCallback(
    (text: string | null) => {
      setPort(text);
      if (text !== null) setTool('port');
    },
    [setPort, setTool],
  );
  // One object while the view stays: the panels given it re-render only when it changes.
  const view = {
    /** The Investigate panel's tab. */
    tool,
    setTool,
    /** Route tab: its two ends. */
    from,
    to,
    setFrom,
    setTo,
    /** Contention tab: the pattern checked and its hosts (a host list; null: every host). */
    pattern,
    hosts,
    setCheck,
    /** Link tab: the link direction shown. */
    link,
    setLink,
    /** Jobs tab: the job shown. */
    job,
    /** Port tab: what the search box or the Link tab opened (`edge1/4`, a node, a GUID, a LID). */
    port,
    /** Link directions whose history is open (`?links=`). */
    links,
    setLinks,
    /** Opens a direction's history under the chart. */
    openHistory,
    /** A click on a link or heatmap cell: its flows and jobs in the Link tab, its history below. */
    selectChannel,
    /** Opens a job in the Jobs tab (null: none). */
    selectJob,
    /** Opens a port's or node's page in the Port tab (null: none). */
    openPort,
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the deps are exactly the view's fields
  return useMemo(() => view, Object.values(view));
}

export type InvestigateView = ReturnType<typeof useInvestigateView>;
