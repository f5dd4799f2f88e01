import type { Features } from './api-types.ts';
import { clock, count, fit } from './format.ts';
import { errorCategoryLines, errorsLine } from './render-errors.ts';
import { footer, helpLines } from './render-help.ts';
import { congestionLine, histogramLines, historyLine, statusLines, titleLine } from './render-summary.ts';
import { nameColumns, tableHeader, tableRow } from './render-table.ts';
import { line, type RenderInput, type ScreenLine, type ScreenSize } from './screen-line.ts';
import { LINK_FILTERS, SORT_CRITERIA } from './state.ts';

export { sparkline } from './render-summary.ts';
export type { LineStyle, RenderInput, ScreenLine, ScreenSize } from './screen-line.ts';

export const MIN_WIDTH = 80;
export const MIN_HEIGHT = 24;

/** Rows of the ranked table on a screen of this size (what the client asks the server for). */
export function tableRows(size: ScreenSize, features: Features | null): number {
  return Math.max(1, size.height - fixedLines(features));
}

// title, 2 status, errors, wait, blank, 3 histogram, history, blank, sort line, table header, message, footer
const FIXED_LINES = 15;
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

/** One screen, exactly `size.height` lines of `size.width` columns. */
export function renderScreen(input: RenderInput, size: ScreenSize): ScreenLine[] {
  const { width, height } = size;
  if (width < MIN_WIDTH || height < MIN_HEIGHT) return tooSmall(size);
  const top: ScreenLine[] = [
    titleLine(input, width),
    ...statusLines(input, width),
    errorsLine(input, width),
    congestionLine(input, width),
    line('', width),
  ];
  top.push(...histogramLines(input, width), historyLine(input, width), line('', width));
  const message = line(input.state.message ?? '', width, input.state.message ? 'warning' : 'plain');
  if (input.state.showHelp || input.state.showErrors) {
    // Help and the error categories take the whole screen under the title, as opatop's screens do.
    const screen = input.state.showHelp ? helpLines(input, width) : errorCategoryLines(input, width);
    const body = [line('', width), ...screen].slice(0, height - 3);
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
  const last = input.state.sort === 'integrity' ? 'integrity' : 'wait';
  const table: ScreenLine[] = [
    line(`Ranked by ${sort} · ${filter} · ${range}`, width, 'heading'),
    line(tableHeader(nameWidth, last), width, 'heading'),
    ...shown.map((link, i) =>
      tableRow(input.state.scroll + i + 1, link, nameWidth, width, input.state.rateUnit, last),
    ),
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
