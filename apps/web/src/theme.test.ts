import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from './test/contrast.ts';

/** The custom properties of each theme block of theme.css: dark, light (system), light (chosen). */
function palettes(): Record<string, Record<string, string>> {
  const css = readFileSync(new URL('./theme.css', import.meta.url), 'utf8');
  const blocks: Record<string, Record<string, string>> = {};
  const re = /(:root(?::not\(\[data-theme="dark"\]\))?(?:\[data-theme="light"\])?)\s*\{([^{}]*)\}/g;
  for (const [, selector = '', body = ''] of css.matchAll(re)) {
    const vars: Record<string, string> = {};
    for (const [, name = '', value = ''] of body.matchAll(/--([a-z0-9-]+):\s*([^;]+);/g))
      vars[name] = value.trim();
    blocks[selector] = vars;
  }
  return blocks;
}

/** Text colour → the backgrounds it is written on. */
const TEXT_PAIRS: [string, string[]][] = [
  [
    'text',
    ['bg', 'panel', 'panel-2', 'control-bg', 'input-bg', 'node-fill', 'switch-fill', 'router-fill', 'slot'],
  ],
  ['muted', ['bg', 'panel', 'panel-2']],
  ['accent', ['bg', 'panel', 'panel-2']],
  ['primary-text', ['primary-bg', 'live-bg']],
  ['danger-text', ['panel', 'panel-2']],
  ['wait-text', ['panel', 'panel-2']],
  ['ok-text', ['panel', 'panel-2']],
  ['error-text', ['error-bg']],
  ['past-text', ['past-bg']],
  ['chip-down-text', ['chip-down-bg']],
  ['text', ['danger-bg']],
  ['event-ar', ['panel']],
  ['event-fault', ['panel']],
];

describe('contrastRatio', () => {
  it('matches WCAG reference values', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    // The primary button before: light text on #1f6feb.
    expect(contrastRatio('#e6edf3', '#1f6feb')).toBeCloseTo(3.92, 2);
  });

  it('is symmetric and between 1 and 21', () => {
    const hex = fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 3, maxLength: 3 })
      .map((c) => `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`);
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const r = contrastRatio(a, b);
        return r >= 1 && r <= 21 + 1e-9 && Math.abs(r - contrastRatio(b, a)) < 1e-12;
      }),
    );
  });
});

describe('themes', () => {
  const themes = palettes();

  it('defines dark, light by system preference and light by choice, with the same variables', () => {
    const names = Object.keys(themes);
    expect(names).toHaveLength(3);
    const keys = names.map((n) => Object.keys(themes[n] ?? {}).sort());
    expect(keys[1]).toEqual(keys[0]);
    expect(keys[2]).toEqual(keys[0]);
    // The two light blocks are the same palette.
    expect(themes[names[1] ?? '']).toEqual(themes[names[2] ?? '']);
  });

  it('draws a link down and an unknown one visibly (3:1 for graphics), neither in the red of 100 %', () => {
    const failures: string[] = [];
    for (const [theme, vars] of Object.entries(themes)) {
      for (const state of ['down', 'unknown']) {
        const colour = vars[state] ?? '';
        for (const bg of ['bg', 'panel']) {
          const ratio = contrastRatio(colour, vars[bg] ?? '');
          if (!(ratio >= 3)) failures.push(`${theme}: --${state} on --${bg} is ${ratio.toFixed(2)}:1`);
        }
        // Neutral: no channel more than 25 above another (100 % is red, idle is blue).
        const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
        if (Math.max(r, g, b) - Math.min(r, g, b) > 25)
          failures.push(`${theme}: --${state} ${colour} has a hue`);
      }
      if (vars.down === vars.unknown) failures.push(`${theme}: down and unknown share a colour`);
    }
    expect(failures).toEqual([]);
  });

  it('gives every text colour at least 4.5:1 on each background it is written on (WCAG AA)', () => {
    const failures: string[] = [];
    for (const [theme, vars] of Object.entries(themes)) {
      for (const [fg, backgrounds] of TEXT_PAIRS) {
        for (const bg of backgrounds) {
          const a = vars[fg];
          const b = vars[bg];
          if (!a || !b) {
            failures.push(`${theme}: --${fg} or --${bg} missing`);
            continue;
          }
          const ratio = contrastRatio(a, b);
          if (ratio < 4.5) failures.push(`${theme}: --${fg} on --${bg} is ${ratio.toFixed(2)}:1`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
