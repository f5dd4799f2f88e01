import { formatRate, type RateUnit } from '@fabscope/contracts/units';
import type { LinkState } from './api-types.ts';
import { padEnd, padStart, percent, si, UNKNOWN } from './format.ts';
import { line, type ScreenLine } from './screen-line.ts';

/** A utilization this high marks the row (opatop's OVER colour). */
const HOT_UTILIZATION = 0.9;

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

export function linkName(link: LinkState): string {
  return `${link.from.node}/${link.from.port} → ${link.to.node}/${link.to.port}`;
}

/** "!" down, "?" stale, as opatop marks ports that did not answer the PM. */
function mark(link: LinkState): string {
  if (link.linkUp === false) return '!';
  if (link.stale || link.utilization === null) return '?';
  return ' ';
}

/** Columns for link names: what the longest name needs, at most what the width leaves. */
export function nameColumns(width: number, links: LinkState[]): number {
  const room = width - RANK_WIDTH - MARK_WIDTH - COLUMNS.reduce((s, c) => s + c.width, 0);
  const longest = Math.max(MIN_NAME_WIDTH, ...links.map((l) => [...linkName(l)].length + 1));
  return Math.min(room, longest);
}
const MIN_NAME_WIDTH = 24;

/** The last column: Wait, or the PM category the table is ranked by (× its threshold). */
export type LastColumn = 'wait' | 'integrity';
const LAST_TITLES: Record<LastColumn, string> = { wait: 'Wait', integrity: 'Integ×' };

export function tableHeader(nameWidth: number, last: LastColumn = 'wait'): string {
  return (
    padStart('#', RANK_WIDTH - 1) +
    ' '.repeat(1 + MARK_WIDTH) +
    padEnd('Link direction', nameWidth) +
    COLUMNS.map((c, i) =>
      i === 0 ? padEnd(` ${c.title}`, c.width) : padStart(i === 4 ? LAST_TITLES[last] : c.title, c.width),
    ).join('')
  );
}

function lastCell(link: LinkState, last: LastColumn): string {
  if (last === 'wait') return percent(link.transmitWaitFraction);
  const value = link.categories?.[last];
  return value === null || value === undefined ? UNKNOWN : value.toFixed(2);
}

export function tableRow(
  rank: number,
  link: LinkState,
  nameWidth: number,
  width: number,
  rateUnit: RateUnit = 'bytes',
  last: LastColumn = 'wait',
): ScreenLine {
  const cells = [
    padEnd(` ${link.kind === 'isl' ? 'ISL' : link.kind}`, COLUMNS[0].width),
    padStart(percent(link.utilization), COLUMNS[1].width),
    // The dashboard's formatter: the same figure, the same unit, the same digits on both screens.
    padStart(formatRate(link.bytesPerSecond, rateUnit), COLUMNS[2].width),
    padStart(si(link.packetsPerSecond, 'p/s'), COLUMNS[3].width),
    padStart(lastCell(link, last), COLUMNS[4].width),
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
