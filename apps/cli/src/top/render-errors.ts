import { CATEGORY_NAMES, type CategoryName } from '@fabscope/contracts/names';
import { count, padEnd, padStart, UNKNOWN } from './format.ts';
import { line, type RenderInput, type ScreenLine } from './screen-line.ts';

/** The six PM categories as opatop names them; short forms where 80 columns need them. */
const LABELS: Record<CategoryName, { long: string; short: string }> = {
  integrity: { long: 'Integrity', short: 'Integ' },
  congestion: { long: 'Congestion', short: 'Congst' },
  smaCongestion: { long: 'SMA cong.', short: 'SmaCg' },
  bubble: { long: 'Bubble', short: 'Bubbl' },
  security: { long: 'Security', short: 'Secur' },
  routing: { long: 'Routing', short: 'Routg' },
};

/** The summary's bars per category: 0–25, 25–50, 50–75, 75–100 and ≥ 100 % of its threshold. */
const BARS = ['0–25 %', '25–50 %', '50–75 %', '75–100 %', '≥ 100 %'] as const;

type Bars = { isl: number[]; host: number[]; unknown: number };

/** Directions at or over a category's threshold; null when none of them is known (no such counter). */
function overThreshold(bars: Bars | undefined): number | null {
  if (!bars) return null;
  const known = [...bars.isl, ...bars.host].reduce((s, n) => s + n, 0);
  return known === 0 ? null : (bars.isl[4] ?? 0) + (bars.host[4] ?? 0);
}

/**
 * opatop's error categories as the API counts them (the summary's category bars, live only): link
 * directions at or over each category's threshold, "—" where the fabric has no such counter.
 */
export function errorsLine(input: RenderInput, width: number): ScreenLine {
  const categories = input.snapshot?.summary.categories;
  if (!input.snapshot) return line(`Errors    ${UNKNOWN}`, width);
  if (!categories) return line('Errors    the server counted no PM categories at this instant', width);
  const parts = (form: 'long' | 'short') =>
    CATEGORY_NAMES.map((name) => `${LABELS[name][form]} ${count(overThreshold(categories[name]))}`);
  const wide = `Errors ≥ threshold  ${parts('long').join('  ')}`;
  const compact = `Errors ≥ thr. ${parts('short').join('  ')}`;
  const anyOver = CATEGORY_NAMES.some((name) => (overThreshold(categories[name]) ?? 0) > 0);
  return line(wide.length <= width ? wide : compact, width, anyOver ? 'warning' : 'plain');
}

/** The error-category screen (e): per category and kind, link directions per share of the threshold. */
export function errorCategoryLines(input: RenderInput, width: number): ScreenLine[] {
  const categories = input.snapshot?.summary.categories;
  const heading = line(
    'Error categories: link directions per share of the threshold (e: back)',
    width,
    'heading',
  );
  if (!categories)
    return [heading, line('', width), line('  The server counted no PM categories at this instant.', width)];
  const header =
    padEnd('  Category', 14) + padEnd('Kind', 6) + [...BARS, 'unknown'].map((b) => padStart(b, 9)).join('');
  const rows = CATEGORY_NAMES.flatMap((name) => {
    const bars = categories[name];
    return (['isl', 'host'] as const).map((kind, i) => {
      const cells = bars ? bars[kind].map((n) => padStart(count(n), 9)).join('') : '';
      const unknown = i === 0 ? padStart(count(bars?.unknown), 9) : '';
      const text =
        padEnd(i === 0 ? `  ${LABELS[name].long}` : '', 14) + padEnd(kind === 'isl' ? 'ISL' : 'host', 6);
      const over = (bars?.[kind][4] ?? 0) > 0;
      return line(text + cells + unknown, width, over ? 'warning' : 'plain');
    });
  });
  return [
    heading,
    line('', width),
    line(header, width, 'heading'),
    ...rows,
    line('', width),
    line(
      '  unknown: directions none of whose counters of the category were read (fabric has none, or stale).',
      width,
    ),
  ];
}
