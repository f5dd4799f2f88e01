import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LinkState } from '../src/top/api-types.ts';
import { MIN_HEIGHT, MIN_WIDTH, renderScreen, sparkline, tableRows, wrap } from '../src/top/render.ts';
import { plainText, sizeFromEnv, terminalFrame } from '../src/top/screen.ts';
import { initialViewState } from '../src/top/state.ts';
import { arDemoSnapshot, input, link } from './top-fixtures.ts';

const text = (lines: { text: string }[]) => lines.map((l) => l.text);
const columns = (s: string) => [...s].length;
const SIZE = { width: 80, height: 24 };

describe('fabscope top screen', () => {
  it('fills 80×24 exactly: summary, histograms, ranked rows, key line', () => {
    const lines = text(renderScreen(input(), SIZE));
    expect(lines).toHaveLength(24);
    for (const l of lines) expect(columns(l)).toBe(80);
    expect(lines[0]).toMatch(
      /^fabscope top {2}ar-demo \(omnipath\) {2}http:\/\/127\.0\.0\.1:8080 +Live 22:31:15Z$/,
    );
    expect(lines[1]).toContain('Store embedded   Data age 0.2 s fresh');
    expect(lines[2]).toContain('Host transmit 12.36 GB/s   Link directions 8 ISL, 8 host, 0 unknown');
    expect(lines[6]?.trimEnd()).toBe(
      'Util          0+%   10+%   20+%   30+%   40+%   50+%   60+%   70+%   80+%   90+%',
    );
    expect(lines[7]?.trimEnd()).toBe(
      'ISLs            6      0      0      0      0      0      0      0      0      2',
    );
    expect(lines[8]?.trimEnd()).toBe(
      'Host links      4      0      0      0      4      0      0      0      0      0',
    );
    expect(lines[9]).toContain('History   no history on this server');
    expect(lines[11]).toContain('Ranked by Utilization (highest first) · all links · rows 1–5');
    expect(lines[3]?.trimEnd()).toBe('Errors ≥ thr. Integ 0  Congst 4  SmaCg —  Bubbl 0  Secur 0  Routg 0');
    expect(lines[4]?.trimEnd()).toBe('Wait      worst wait 50.0 % edge1/4 → core2/1');
    expect(lines[13]?.trimEnd()).toBe(
      '  1   edge1/4 → core2/1        ISL   98.9 %  12.36 GB/s   1.51 Mp/s  50.0 %',
    );
    expect(lines[17]).toContain(
      '  5   core1/1 → edge1/3        ISL    0.0 %       0 B/s    0.00 p/s   0.0 %',
    );
    expect(lines[23]?.trimEnd()).toBe(
      'q quit c/C sort 0/1/2 kind e errors s/S page ? help | no history on this server',
    );
    expect(tableRows(SIZE, { history: false, events: false })).toBe(9);
  });

  it("writes rates with the dashboard's formatter, in the unit chosen (g)", () => {
    const bits = text(renderScreen(input({ state: { ...initialViewState, rateUnit: 'bits' } }), SIZE));
    expect(bits[2]).toContain('Host transmit 98.88 Gb/s');
    const header = bits[12] ?? '';
    const row = bits[13] ?? '';
    expect(row).toContain('98.88 Gb/s');
    expect(header.indexOf('Data') + 4).toBe(row.indexOf('98.88 Gb/s') + '98.88 Gb/s'.length);
    for (const l of bits) expect(columns(l)).toBe(80);
  });

  it('columns of the header and rows line up', () => {
    const lines = text(renderScreen(input(), SIZE));
    const header = lines[12] ?? '';
    const row = lines[13] ?? '';
    expect(header.indexOf('Link direction')).toBe(row.indexOf('edge1/4'));
    expect(header.indexOf('Kind') - 1).toBe(row.indexOf('ISL') - 1);
    // Numbers are right-aligned under their titles.
    for (const [title, value] of [
      ['Util', '98.9 %'],
      ['Data', '12.36 GB/s'],
      ['Packets', '1.51 Mp/s'],
      ['Wait', '50.0 %'],
    ] as const) {
      expect(header.indexOf(title) + title.length, title).toBe(row.indexOf(value) + value.length);
    }
  });

  it('any size from 80×24 up: exactly height lines of exactly width columns', () => {
    const name = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 90 });
    const value = fc.option(fc.double({ min: 0, max: 1e13, noNaN: true }), { nil: null });
    const anyLink = fc
      .record({
        a: name,
        b: name,
        u: value,
        bps: value,
        pps: value,
        wait: value,
        up: fc.option(fc.boolean()),
      })
      .map(
        ({ a, b, u, bps, pps, wait, up }): LinkState =>
          link(`${a}/1`, `${b}/2`, {
            utilization: u === null ? null : u / 1e13,
            bytesPerSecond: bps,
            packetsPerSecond: pps,
            transmitWaitFraction: wait === null ? null : wait / 1e13,
            linkUp: up,
          }),
      );
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_WIDTH, max: 300 }),
        fc.integer({ min: MIN_HEIGHT, max: 120 }),
        fc.array(anyLink, { maxLength: 130 }),
        fc.record({ history: fc.boolean(), events: fc.boolean() }),
        fc.constantFrom('table', 'help', 'errors', 'integrity'),
        (width, height, links, features, shown) => {
          const lines = renderScreen(
            input({
              features,
              snapshot: { ...arDemoSnapshot, links },
              state: {
                ...initialViewState,
                showHelp: shown === 'help',
                showErrors: shown === 'errors',
                sort: shown === 'integrity' ? 'integrity' : 'utilization',
              },
            }),
            { width, height },
          );
          expect(lines).toHaveLength(height);
          for (const l of lines) expect(columns(l.text)).toBe(width);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('below 80×24 says so instead of drawing a broken screen', () => {
    for (const size of [
      { width: 79, height: 24 },
      { width: 80, height: 23 },
      { width: 30, height: 5 },
      { width: 12, height: 2 },
    ]) {
      const lines = text(renderScreen(input(), size));
      expect(lines).toHaveLength(size.height);
      for (const l of lines) expect(columns(l)).toBe(size.width);
      expect(lines.join(' ')).toContain(`needs`);
      expect(lines.join(' ')).not.toContain('edge1');
    }
    expect(text(renderScreen(input(), { width: 79, height: 24 }))[0]).toContain(
      'fabscope top needs at least 80×24; this terminal is 79×24.',
    );
  });

  it('long names are cut with an ellipsis, the numbers stay in place', () => {
    const long = link(
      `fat-tree-27648-pod17-edge23-with-a-very-long-node-description/43`,
      'core-switch-0042/7',
      {
        utilization: 0.5,
      },
    );
    const lines = text(renderScreen(input({ snapshot: { ...arDemoSnapshot, links: [long] } }), SIZE));
    const row = lines[13] ?? '';
    expect(columns(row)).toBe(80);
    expect(row).toMatch(/ fat-tree-27648-pod17-edg\S*…\s+ISL +50\.0 % /);
    const header = lines[12] ?? '';
    expect(row.indexOf('50.0 %') + '50.0 %'.length).toBe(header.indexOf('Util') + 'Util'.length);
  });

  it('unknown values are dashes, never 0; down and stale links are marked', () => {
    const unknown = link('edge1/4', 'core2/1', {
      utilization: null,
      bytesPerSecond: null,
      packetsPerSecond: null,
      transmitWaitFraction: null,
      linkUp: null,
      stale: true,
    });
    const down = link('edge1/3', 'core1/1', { linkUp: false });
    const lines = text(
      renderScreen(
        input({
          snapshot: {
            ...arDemoSnapshot,
            health: {
              status: 'degraded',
              store: 'prometheus',
              lastSampleAgeSeconds: null,
              error: 'no samples yet',
            },
            summary: { ...arDemoSnapshot.summary, hostTransmitBytesPerSecond: null, staleLinks: 16 },
            links: [down, unknown],
          },
        }),
        SIZE,
      ),
    );
    expect(lines[1]).toContain('Store prometheus   Data age — STALE (no samples yet)');
    expect(lines[2]).toContain('Host transmit —');
    expect(lines[2]).toContain('16 unknown');
    expect(lines[13]).toMatch(/^ {2}1 ! edge1\/3 → core1\/1/);
    expect(lines[14]?.trimEnd()).toMatch(/^ {2}2 \? edge1\/4 → core2\/1 +ISL +— +— +— +—$/);
  });

  it('before the first answer: dashes and "waiting for the server"', () => {
    const lines = text(renderScreen(input({ snapshot: null, fabric: null, features: null }), SIZE));
    expect(lines[0]).toContain('fabscope top  —');
    expect(lines[0]).toMatch(/Live —$/);
    expect(lines[2]).toContain('Host transmit —   Link directions — ISL, — host, — unknown');
    expect(lines[7]).toMatch(/^ISLs +— +— +— +— +— +— +— +— +— +— *$/);
    expect(lines[11]).toContain('waiting for the server');
  });

  it('when the server stops answering, says so and how old the numbers are', () => {
    const lines = text(
      renderScreen(
        input({
          error: 'cannot reach http://127.0.0.1:8080/api/v1/health: connect ECONNREFUSED',
          nowMs: Date.parse('2026-11-22T22:31:57.500Z'),
        }),
        SIZE,
      ),
    );
    expect(lines[1]).toMatch(/^NO ANSWER \(numbers below are 42 s old\): cannot reach http/);
    // The numbers stay, marked by that line, rather than turning into zeros or vanishing.
    expect(lines[2]).toContain('Host transmit 12.36 GB/s');
    const first = text(
      renderScreen(input({ snapshot: null, snapshotAtMs: null, error: 'cannot reach x' }), SIZE),
    );
    expect(first[1]).toMatch(/^NO ANSWER \(no numbers yet\): cannot reach x/);
  });

  it('with history: the key line offers the history keys, the history line draws host transmit', () => {
    // Before the server had data (22:31:09), the ticks on screen (to 22:31:15), one after it.
    const history = [null, 1, 2, 4, 8, null, 8, 1].map((v, i) => ({
      time: `2026-11-22T22:31:${String(9 + i).padStart(2, '0')}.000Z`,
      hostTransmitBytesPerSecond: v === null ? null : v * 1e9,
    }));
    const state = { ...initialViewState, time: '2026-11-22T22:31:12.000Z' };
    const lines = text(
      renderScreen(
        input({
          features: { history: true, events: false },
          snapshot: { ...arDemoSnapshot, askedTime: state.time, history },
          state,
        }),
        { width: 110, height: 24 },
      ),
    );
    expect(lines[0]).toMatch(/Hist 22:31:15Z {2}Now: 22:31:16Z$/);
    expect(lines[9]?.trimEnd()).toBe('History   host transmit, 6 ticks to 22:31:15Z ▂▃▅█ █');
    expect(lines[23]).toContain('L live  r/R f/F step  B/b bookmark');
    expect(text(renderScreen(input({ features: { history: true, events: false } }), SIZE))[23]).toContain(
      'L live r/R f/F step B/b bkmk',
    );
    const bookmarked = { ...state, bookmark: state.time };
    const answered = { ...arDemoSnapshot, askedTime: state.time };
    expect(text(renderScreen(input({ state: bookmarked, snapshot: answered }), SIZE))[0]).toContain('Bkmk');
    // Until the answer for the asked instant arrives, the title labels the numbers on screen (live).
    const waiting = text(renderScreen(input({ state: bookmarked, snapshot: arDemoSnapshot }), SIZE))[0];
    expect(waiting).toMatch(/ Live 22:31:15Z$/);
    expect(sparkline([0, 0], 5)).toBe('▁▁');
    expect(sparkline([1, 2, 3], 2)).toBe('▆█');
  });

  it('with events: the newest two under the table', () => {
    const events = [
      { time: '2026-11-22T22:30:00.000Z', text: 'link-down edge1/4--core2/1' },
      { time: '2026-11-22T22:30:05.000Z', text: 'link-up edge1/4--core2/1' },
      { time: '2026-11-22T22:30:09.000Z', text: 'symbol-errors edge1/3--core1/1' },
    ];
    const lines = text(
      renderScreen(
        input({ features: { history: false, events: true }, snapshot: { ...arDemoSnapshot, events } }),
        SIZE,
      ),
    );
    expect(lines[19]).toContain('Events (newest first)');
    expect(lines[20]).toContain('22:30:09Z  symbol-errors edge1/3--core1/1');
    expect(lines[21]).toContain('22:30:05Z  link-up edge1/4--core2/1');
    expect(tableRows(SIZE, { history: false, events: true })).toBe(6);
  });

  it('help lists the keys and says whether history is there', () => {
    const state = { ...initialViewState, showHelp: true };
    const without = text(renderScreen(input({ state }), SIZE)).join('\n');
    expect(without).toContain('c    next sort criterion');
    expect(without).toContain('Packets (highest first)');
    expect(without).toContain('history keys: no history on this server');
    const withHistory = text(
      renderScreen(input({ state, features: { history: true, events: false } }), SIZE),
    );
    expect(withHistory.join('\n')).toContain('r R  back 1 / 5 ticks');
    // The whole help fits in 80×24, under the title line.
    expect(withHistory[0]).toMatch(/^fabscope top/);
    for (const l of withHistory) expect(l).not.toContain('…');
    expect(withHistory.join('\n')).toContain('Data, Packets: per second, SI (k = 1,000).');
    expect(withHistory.join('\n')).not.toContain('Ranked by');
  });

  it('counts each PM category over its threshold from the summary; — where the fabric has no such counter', () => {
    const integrity = { isl: [6, 0, 0, 1, 1], host: [7, 0, 0, 0, 1], unknown: 0 };
    const categories = {
      ...arDemoSnapshot.summary.categories,
      integrity,
    } as typeof arDemoSnapshot.summary.categories;
    const snapshot = { ...arDemoSnapshot, summary: { ...arDemoSnapshot.summary, categories } };
    const lines = renderScreen(input({ snapshot }), { width: 120, height: 24 });
    expect(lines[3]?.text.trimEnd()).toBe(
      'Errors ≥ threshold  Integrity 2  Congestion 4  SMA cong. —  Bubble 0  Security 0  Routing 0',
    );
    expect(lines[3]?.style).toBe('warning');
    // An instant the server counted no categories at: the line says so rather than showing 0.
    const past = { ...arDemoSnapshot, summary: { ...arDemoSnapshot.summary, categories: undefined } };
    expect(text(renderScreen(input({ snapshot: past }), SIZE))[3]).toContain(
      'counted no PM categories at this instant',
    );
  });

  it('e shows the error categories: each category’s directions per share of its threshold', () => {
    const state = { ...initialViewState, showErrors: true };
    const lines = text(renderScreen(input({ state }), SIZE));
    expect(lines.join('\n')).not.toContain('Ranked by');
    const header = lines.find((l) => l.includes('Category')) ?? '';
    expect(header).toMatch(/Category +Kind +0–25 % +25–50 % +50–75 % +75–100 % +≥ 100 % +unknown/);
    const congestion = lines.find((l) => l.startsWith('  Congestion')) ?? '';
    expect(congestion.trimEnd()).toMatch(/^ {2}Congestion +ISL +6 +0 +0 +0 +2 +0$/);
    const sma = lines.find((l) => l.startsWith('  SMA cong.')) ?? '';
    expect(sma.trimEnd()).toMatch(/^ {2}SMA cong\. +ISL +0 +0 +0 +0 +0 +16$/);
  });

  it('ranked by Integrity, the last column is each direction’s Integrity × threshold', () => {
    const bad = link('edge1/3', 'core1/1', {
      categories: { integrity: 2.5, congestion: 0, smaCongestion: null, bubble: 0, security: 0, routing: 0 },
    });
    const state = { ...initialViewState, sort: 'integrity' as const };
    const lines = text(renderScreen(input({ state, snapshot: { ...arDemoSnapshot, links: [bad] } }), SIZE));
    expect(lines[11]).toContain('Ranked by Errors: Integrity (worst first)');
    expect(lines[12]?.trimEnd()).toMatch(/Integ×$/);
    expect(lines[13]?.trimEnd()).toMatch(/^ {2}1 {3}edge1\/3 → core1\/1 .* 2\.50$/);
  });

  it('--once prints no key footer: one screen is read, not driven', () => {
    const lines = text(renderScreen(input({ once: true }), SIZE));
    expect(lines).toHaveLength(24);
    expect(lines[23]?.trim()).toBe('');
    expect(lines.join('\n')).not.toMatch(/q quit|\? help/);
  });

  it('plain text has no escape codes; a terminal frame styles and clears each line', () => {
    const lines = renderScreen(input(), SIZE);
    const plain = plainText(lines);
    expect(plain).not.toContain('\x1b');
    expect(plain.split('\n')).toHaveLength(25);
    const frame = terminalFrame(lines);
    expect(frame.startsWith('\x1b[H\x1b[1mfabscope top')).toBe(true);
    expect(frame).toContain('\x1b[31m  1   edge1/4 → core2/1');
    expect(frame).not.toMatch(/\n$/);
    expect(sizeFromEnv({ COLUMNS: '132', LINES: '50' })).toEqual({ width: 132, height: 50 });
    expect(sizeFromEnv({ COLUMNS: 'wide' })).toEqual({ width: 80, height: 24 });
  });

  it('wraps words to a width', () => {
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrap('abcdefghijkl', 5)).toEqual(['abcd…']);
  });
});
