import { formatRate } from '@fabscope/contracts/units';
import { age, clock, count, padEnd, padStart, percent, UNKNOWN } from './format.ts';
import { linkName } from './render-table.ts';
import { line, type RenderInput, type ScreenLine, spread } from './screen-line.ts';
import { modeOf, NO_HISTORY } from './state.ts';

const BUCKET_WIDTH = 7;
const HISTOGRAM_LABEL = 10;
const SPARK = '▁▂▃▄▅▆▇█';

export function titleLine(input: RenderInput, width: number): ScreenLine {
  const fabric = input.fabric
    ? `${input.fabric.name}${input.fabric.fabricType ? ` (${input.fabric.fabricType})` : ''}`
    : UNKNOWN;
  // Until the answer for a new instant arrives, the previous one is shown, labelled as what it is.
  const shownTime = input.snapshot ? input.snapshot.askedTime : input.state.time;
  const mode = modeOf({ time: shownTime, bookmark: input.state.bookmark });
  const shown = clock(input.snapshot?.summary.time);
  const now = mode === 'Live' ? '' : `  Now: ${clock(new Date(input.nowMs).toISOString())}`;
  return line(
    spread(`fabscope top  ${fabric}  ${input.url}`, `${mode} ${shown}${now}`, width),
    width,
    'title',
  );
}

export function statusLines(input: RenderInput, width: number): ScreenLine[] {
  const snapshot = input.snapshot;
  const health = snapshot?.health;
  const summary = snapshot?.summary;
  const stale = health ? health.status !== 'ok' : true;
  const lines: ScreenLine[] = [];
  if (input.error) {
    // How old the numbers on screen are comes first: the reason may not fit.
    const since =
      input.snapshotAtMs === null
        ? 'no numbers yet'
        : `numbers below are ${age((input.nowMs - input.snapshotAtMs) / 1000)} old`;
    lines.push(line(`NO ANSWER (${since}): ${input.error}`, width, 'warning'));
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
      `Host transmit ${formatRate(summary?.hostTransmitBytesPerSecond, input.state.rateUnit)}   Link directions ${count(isl)} ISL, ${count(host)} host, ${count(summary?.staleLinks)} unknown`,
      width,
    ),
  );
  return lines;
}

/** Congestion as XmitWait shows it: the direction whose sender waits most, fabric-wide. */
export function congestionLine(input: RenderInput, width: number): ScreenLine {
  const worst = input.snapshot?.mostWaiting;
  const wait = worst?.transmitWaitFraction;
  const congestion =
    !input.snapshot || wait === null || wait === undefined
      ? UNKNOWN
      : wait === 0
        ? 'no sender waiting'
        : `worst wait ${percent(wait)} ${worst ? linkName(worst) : ''}`;
  return line(`Wait      ${congestion}`, width);
}

export function histogramLines(input: RenderInput, width: number): ScreenLine[] {
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

export function historyLine(input: RenderInput, width: number): ScreenLine {
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
