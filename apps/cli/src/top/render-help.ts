import { line, type RenderInput, type ScreenLine } from './screen-line.ts';
import { NO_HISTORY, SORT_CRITERIA } from './state.ts';

/** The key line at the bottom of every screen. */
export function footer(input: RenderInput, width: number): ScreenLine {
  const history = input.features?.history;
  // One screen printed (--once) is read, not driven: no keys.
  if (input.once) return line('', width);
  const wide = `q quit  c/C sort  0 all 1 ISL 2 host  e errors  s/S page  g bits  ? help${history ? '  L live  r/R f/F step  B/b bookmark' : ` | ${NO_HISTORY}`}`;
  // At 80 columns the spacious form does not fit; the same keys, closer together.
  const compact = `q quit c/C sort 0/1/2 kind e errors s/S page ? help${history ? ' L live r/R f/F step B/b bkmk' : ` | ${NO_HISTORY}`}`;
  return line(wide.length <= width ? wide : compact, width, 'footer');
}

/** The help screen (? or h): every key, and whether history is there. */
export function helpLines(input: RenderInput, width: number): ScreenLine[] {
  const history = input.features?.history;
  const texts = [
    'Keys (as in opatop; each acts at once, no Enter needed)',
    '',
    '  q Q  quit                          ? h  this help (u or ? again: back)',
    '  c    next sort criterion           C    previous sort criterion',
    ...SORT_CRITERIA.map((c) => `         ${c.label}`),
    '  0    all links   1 ISLs   2 host links (opatop: port groups All, SWs, HFIs)',
    '  e    error categories: directions per share of each PM threshold',
    '  s    next page of ranked links     S    previous page',
    '  g    rates in bits (Gb/s) or bytes (GB/s) per second',
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
