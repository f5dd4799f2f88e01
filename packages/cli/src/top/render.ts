import type { FabricInfo, Features, LinkState, Snapshot } from './api-types.ts';
import { age, clock, count, fit, padEnd, padStart, percent, si, UNKNOWN } from './format.ts';
import { LINK_FILTERS, modeOf, NO_HISTORY, SORT_CRITERIA, type ViewState } from './state.ts';

export const MIN_WIDTH = 80;
export const MIN_HEIGHT = 24;

/** How a line is shown on a colour terminal; ignored when stdout is not a TTY. */
export type LineStyle = 'plain' | 'title' | 'heading' | 'hot' | 'warning' | 'footer';

export interface ScreenLine {
  text: string;
  style: LineStyle;
}

export interface ScreenSize {
  width: number;
  height: number;
}

export interface RenderInput {
  url: string;
  state: ViewState;
  fabric: FabricInfo | null;
  features: Features | null;
  /** The newest answers; kept on screen (marked) while the server does not answer. */
  snapshot: Snapshot | null;
  /** Why the last request failed, when it did. */
  error: string | null;
  /** When `snapshot` was fetched. */
  snapshotAtMs: number | null;
  nowMs: number;
}

/** A utilization this high marks the row (opatop's OVER colour). */
const HOT_UTILIZATION = 0.9;
const BUCKET_WIDTH = 7;
const HISTOGRAM_LABEL = 10;
const SPARK = '▁▂▃▄▅▆▇█';

const line = (text: string, width: number, style: LineStyle = 'plain'): ScreenLine => ({
  text: padEnd(text, width),
  style,
});

/** Left text and right text on one line; the left is cut first. */
function spread(left: string, right: string, width: number): string {
  const room = Math.max(0, width - [...right].length - 1);
  return `${padEnd(left, room)} ${right}`;
}

/** Fixed columns of the ranked table; the link direction takes the rest. */
const COLUMNS = [
  { title: 'Kind', width: 5 },
  { title: 'Util', width: 8 },
  { title: 'Data', width: 12 },
  { title: 'Packets', width: 12 },
  { title: 'Wait', width: 8 },
] as const;
const RANK_WIDTH = 4;
const MARK_WIDTH = 2;

function linkName(link: LinkState): string {
  return `${link.from.node}/${link.from.port} → ${link.to.node}/${link.to.port}`;
}

/**
 * "!" the link is down, "?" its values are unknown (stale), as opatop marks ports that did not
 * answer the PM.
 */
function mark(link: LinkState): string {
  if (link.linkUp === false) return '!';
  if (link.stale || link.utilization === null) return '?';
  return ' ';
}

/**
 * Columns for link names: what the longest name on screen needs (the numbers then sit beside
 * the names on a wide terminal), at most what is left of the width.
 */
export function nameColumns(width: number, links: LinkState[]): number {
  const room = width - RANK_WIDTH - MARK_WIDTH - COLUMNS.reduce((s, c) => s + c.width, 0);
  const longest = Math.max(MIN_NAME_WIDTH, ...links.map((l) => [...linkName(l)].length + 1));
  return Math.min(room, longest);
}
const MIN_NAME_WIDTH = 24;

function tableHeader(nameWidth: number): string {
  return (
    padStart('#', RANK_WIDTH - 1) +
    ' '.repeat(1 + MARK_WIDTH) +
    padEnd('Link direction', nameWidth) +
    COLUMNS.map((c, i) => (i === 0 ? padEnd(` ${c.title}`, c.width) : padStart(c.title, c.width))).join('')
  );
}

function tableRow(rank: number, link: LinkState, nameWidth: number, width: number): ScreenLine {
  const cells = [
    padEnd(` ${link.kind === 'isl' ? 'ISL' : link.kind}`, COLUMNS[0].width),
    padStart(percent(link.utilization), COLUMNS[1].width),
    padStart(si(link.bytesPerSecond, 'B/s'), COLUMNS[2].width),
    padStart(si(link.packetsPerSecond, 'p/s'), COLUMNS[3].width),
    padStart(percent(link.transmitWaitFraction), COLUMNS[4].width),
  ];
  const text =
    padStart(String(rank), RANK_WIDTH - 1) +
    ' ' +
    padEnd(mark(link), MARK_WIDTH) +
    padEnd(linkName(link), nameWidth) +
    cells.join('');
  const hot = link.utilization !== null && link.utilization >= HOT_UTILIZATION;
  return line(text, width, link.linkUp === false ? 'warning' : hot ? 'hot' : 'plain');
}

function titleLine(input: RenderInput, width: number): ScreenLine {
  const fabric = input.fabric
    ? `${input.fabric.name}${input.fabric.fabricType ? ` (${input.fabric.fabricType})` : ''}`
    : UNKNOWN;
  const mode = modeOf(input.state);
  const shown = clock(input.snapshot?.summary.time);
  const now = mode === 'Live' ? '' : `  Now: ${clock(new Date(input.nowMs).toISOString())}`;
  return line(
    spread(`fabscope top  ${fabric}  ${input.url}`, `${mode} ${shown}${now}`, width),
    width,
    'title',
  );
}

function statusLines(input: RenderInput, width: number): ScreenLine[] {
  const snapshot = input.snapshot;
  const health = snapshot?.health;
  const summary = snapshot?.summary;
  const stale = health ? health.status !== 'ok' : true;
  const lines: ScreenLine[] = [];
  if (input.error) {
    const since =
      input.snapshotAtMs === null
        ? ''
        : `; numbers below are ${age((input.nowMs - input.snapshotAtMs) / 1000)} old`;
    lines.push(line(`Server not answering: ${input.error}${since}`, width, 'warning'));
  } else {
    const status = health?.error ? `STALE (${health.error})` : stale ? 'STALE' : 'fresh';
    lines.push(
      line(
        `Store ${health?.store ?? UNKNOWN}   Data age ${age(health?.lastSampleAgeSeconds)} ${health ? status : ''}`,
        width,
        stale ? 'warning' : 'plain',
      ),
    );
  }
  const isl = summary ? summary.histogram.isl.reduce((s, n) => s + n, 0) : null;
  const host = summary ? summary.histogram.host.reduce((s, n) => s + n, 0) : null;
  lines.push(
    line(
      `Host transmit ${si(summary?.hostTransmitBytesPerSecond, 'B/s')}   Link directions ${count(isl)} ISL, ${count(host)} host, ${count(summary?.staleLinks)} unknown`,
      width,
    ),
  );
  return lines;
}

/**
 * opatop's error categories, as far as the API reports them: Congestion from XmitWait (the
 * worst waiting link direction); Integrity and the others are not reported, so they are unknown.
 */
function categoriesLine(input: RenderInput, width: number): ScreenLine {
  const worst = input.snapshot?.mostWaiting;
  const wait = worst?.transmitWaitFraction;
  const congestion =
    !input.snapshot || wait === null || wait === undefined
      ? UNKNOWN
      : wait === 0
        ? 'no sender waiting'
        : `worst wait ${percent(wait)} ${worst ? linkName(worst) : ''}`;
  return line(`Errors    Integrity ${UNKNOWN}   Congestion ${congestion}`, width);
}

function histogramLines(input: RenderInput, width: number): ScreenLine[] {
  const summary = input.snapshot?.summary;
  const header =
    padEnd('Util', HISTOGRAM_LABEL) +
    Array.from({ length: 10 }, (_, i) => padStart(`${i * 10}+%`, BUCKET_WIDTH)).join('');
  const row = (label: string, buckets: number[] | undefined) =>
    padEnd(label, HISTOGRAM_LABEL) +
    Array.from({ length: 10 }, (_, i) => padStart(count(buckets?.[i]), BUCKET_WIDTH)).join('');
  return [
    line(header, width, 'heading'),
    line(row('ISLs', summary?.histogram.isl), width),
    line(row('Host links', summary?.histogram.host), width),
  ];
}

/** Host transmit over the ticks the server keeps, one block per tick (newest right). */
export function sparkline(values: (number | null)[], width: number): string {
  const shown = values.slice(-width);
  const known = shown.filter((v): v is number => v !== null);
  const max = Math.max(0, ...known);
  return shown
    .map((v) => (v === null ? ' ' : SPARK[max === 0 ? 0 : Math.round((v / max) * (SPARK.length - 1))]))
    .join('');
}

function historyLine(input: RenderInput, width: number): ScreenLine {
  const history = input.snapshot?.history;
  if (!input.features?.history || !history) return line(`History   ${NO_HISTORY}`, width);
  // The ticks up to the one on screen; those before the server had data are left out.
  const shownMs = Date.parse(input.snapshot?.summary.time ?? '');
  const upTo = history.filter((p) => !(Date.parse(p.time) > shownMs));
  const first = upTo.findIndex((p) => p.hostTransmitBytesPerSecond !== null);
  const values = first < 0 ? [] : upTo.slice(first).map((p) => p.hostTransmitBytesPerSecond);
  const label = `History   host transmit, ${count(values.length)} ticks to ${clock(input.snapshot?.summary.time)} `;
  return line(`${label}${sparkline(values, Math.max(0, width - label.length))}`, width);
}

function footer(input: RenderInput, width: number): ScreenLine {
  const history = input.features?.history;
  const wide = `q quit  c/C sort  0 all 1 ISL 2 host  s/S page  ? help${history ? '  L live  r/R f/F step  B/b bookmark' : ` | ${NO_HISTORY}`}`;
  // At 80 columns the spacious form does not fit; the same keys, closer together.
  const compact = `q quit c/C sort 0 all 1 ISL 2 host s/S page ? help${history ? ' L live r/R f/F step B/b bkmk' : ` | ${NO_HISTORY}`}`;
  return line(wide.length <= width ? wide : compact, width, 'footer');
}

function helpLines(input: RenderInput, width: number): ScreenLine[] {
  const history = input.features?.history;
  const texts = [
    'Keys (as in opatop; each acts at once, no Enter needed)',
    '',
    '  q Q  quit                          ? h  this help (u or ? again: back)',
    '  c    next sort criterion           C    previous sort criterion',
    ...SORT_CRITERIA.map((c) => `         ${c.label}`),
    '  0    all links   1 ISLs   2 host links (opatop: port groups All, SWs, HFIs)',
    '  s    next page of ranked links     S    previous page',
    '',
    ...(history
      ? [
          '  L    live                          B    bookmark the tick on screen',
          '  r R  back 1 / 5 ticks              b    recall the bookmark',
          '  f F  forward 1 / 5 ticks           U    remove the bookmark',
        ]
      : [`  L r R f F B b U  history keys: ${NO_HISTORY}`]),
    '',
    'Marks: ! link down, ? values unknown (stale); unknown values show as —, never 0.',
    'Util and Wait: share of time. Data, Packets: per second, SI (k = 1,000).',
  ];
  return texts.map((t, i) => line(t, width, i === 0 ? 'heading' : 'plain'));
}

/** Rows of the ranked table on a screen of this size (what the client asks the server for). */
export function tableRows(size: ScreenSize, features: Features | null): number {
  return Math.max(1, size.height - fixedLines(features));
}

// title, 2 status, categories, blank, 3 histogram, history, blank, sort line, table header, message, footer
const FIXED_LINES = 14;
const EVENT_LINES = 3;
const fixedLines = (features: Features | null) => FIXED_LINES + (features?.events ? EVENT_LINES : 0);

function eventLines(input: RenderInput, width: number): ScreenLine[] {
  const events = input.snapshot?.events ?? [];
  const newest = events.slice(-(EVENT_LINES - 1)).reverse();
  return [
    line('Events (newest first)', width, 'heading'),
    ...Array.from({ length: EVENT_LINES - 1 }, (_, i) => {
      const e = newest[i];
      return line(e ? `  ${clock(e.time)}  ${e.text}` : i === 0 ? '  none' : '', width);
    }),
  ];
}

/**
 * One screen as lines of text, exactly `size.height` lines of exactly `size.width` columns:
 * title, summary, histograms, history, the ranked link directions, events, key line.
 * Pure: the same input always gives the same screen.
 */
export function renderScreen(input: RenderInput, size: ScreenSize): ScreenLine[] {
  const { width, height } = size;
  if (width < MIN_WIDTH || height < MIN_HEIGHT) return tooSmall(size);
  const top: ScreenLine[] = [
    titleLine(input, width),
    ...statusLines(input, width),
    categoriesLine(input, width),
    line('', width),
  ];
  top.push(...histogramLines(input, width), historyLine(input, width), line('', width));
  const message = line(input.state.message ?? '', width, input.state.message ? 'warning' : 'plain');
  if (input.state.showHelp) {
    // Help takes the whole screen under the title, as opatop's help screens do.
    const body = [line('', width), ...helpLines(input, width)].slice(0, height - 3);
    const filler = Array.from({ length: height - body.length - 3 }, () => line('', width));
    return [top[0] as ScreenLine, ...body, ...filler, message, footer(input, width)];
  }
  const rows = tableRows(size, input.features);
  const links = input.snapshot?.links ?? [];
  const shown = links.slice(input.state.scroll, input.state.scroll + rows);
  const sort = SORT_CRITERIA.find((c) => c.key === input.state.sort)?.label ?? input.state.sort;
  const filter = LINK_FILTERS.find((f) => f.key === input.state.filter)?.label ?? input.state.filter;
  const range =
    shown.length === 0
      ? input.snapshot
        ? 'no link directions'
        : 'waiting for the server'
      : `rows ${count(input.state.scroll + 1)}–${count(input.state.scroll + shown.length)}${input.snapshot?.moreLinks ? ', more below (s)' : ''}`;
  const nameWidth = nameColumns(width, shown);
  const table: ScreenLine[] = [
    line(`Ranked by ${sort} · ${filter} · ${range}`, width, 'heading'),
    line(tableHeader(nameWidth), width, 'heading'),
    ...shown.map((link, i) => tableRow(input.state.scroll + i + 1, link, nameWidth, width)),
    ...Array.from({ length: rows - shown.length }, () => line('', width)),
  ];
  const events = input.features?.events ? eventLines(input, width) : [];
  return [...top, ...table, ...events, message, footer(input, width)];
}

/** Words of `text` in lines of at most `width` columns (a word longer than that is cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if ([...next].length <= width) current = next;
    else {
      if (current) lines.push(current);
      current = fit(word, width);
    }
  }
  if (current) lines.push(current);
  return lines;
}

function tooSmall({ width, height }: ScreenSize): ScreenLine[] {
  const w = Math.max(0, width);
  const message = wrap(
    `fabscope top needs at least ${MIN_WIDTH}×${MIN_HEIGHT}; this terminal is ${width}×${height}. Enlarge it, or press q to quit.`,
    w,
  );
  return Array.from({ length: Math.max(1, height) }, (_, i) => {
    const text = message[i];
    return text === undefined ? line('', w) : line(text, w, 'warning');
  });
}
