import { expect, type Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';

/** The window widths the dashboard must hold at: a 1280 px laptop and a 1600 px desktop. */
export const LAYOUT_WIDTHS = [1280, 1600] as const;

/** What the page shows while it is checked: the Route tab with a route, the contention check done. */
export interface LayoutView {
  name: string;
  /** Query string of the dashboard URL, e.g. `?from=nodeA&to=nodeC`. */
  query: string;
  /** Waits for what the view shows (a route's hops, the contention result). */
  ready: (page: Page) => Promise<void>;
  /**
   * What axe checks (a selector), when the view differs from one checked whole before it only there:
   * a whole-page audit is the costliest step of the check on a big fabric.
   */
  axeWithin?: string;
}

export const routeView = (from: string, to: string): LayoutView => ({
  name: `route ${from} → ${to}`,
  query: `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  ready: async (page) => {
    await expect(page.getByRole('table', { name: 'Route hops' })).toBeVisible();
  },
});

/** The contention check of `pattern`, over `hosts` (a host list) or every host. */
export const contentionView = (pattern: string, hosts?: string): LayoutView => ({
  name: `contention ${pattern}${hosts ? ` on ${hosts}` : ''}`,
  query: `?tool=contention&pattern=${encodeURIComponent(pattern)}${hosts ? `&hosts=${encodeURIComponent(hosts)}` : ''}`,
  // The rest of the page is the route view's, audited whole (checkLayout's views list it first).
  axeWithin: '.area-tools',
  ready: async (page) => {
    // At fat-tree-27648 the API may refuse analyses while its loop lags; the page asks again.
    await expect(page.getByRole('status', { name: 'Flows' })).toBeVisible({ timeout: 120_000 });
  },
});

/**
 * Text boxes of the page that overlap another's, as the browser laid them out: every text node's
 * line boxes (Range client rects), cut to what its scrolling or clipping ancestors show, compared
 * pairwise. SVG text is left to the drawing's own rotated-label check (views.spec.ts); visually
 * hidden text is not on screen. Tolerance: a graze of up to 2 px (line boxes taller than the line).
 */
export async function overlappingTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Box = { left: number; top: number; right: number; bottom: number; text: string; node: number };
    const boxes: Box[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let index = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      index++;
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (text === '' || !parent || parent.closest('svg, .visually-hidden, script, style, option')) continue;
      // Not rendered: a closed <details>, display: none, hidden, transparent.
      if (
        !parent.checkVisibility({
          opacityProperty: true,
          visibilityProperty: true,
          contentVisibilityAuto: true,
        })
      )
        continue;
      // What the ancestors that clip show of it.
      let clip = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
      for (let a: Element | null = parent; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.clipPath !== 'none') {
          const r = a.getBoundingClientRect();
          clip = {
            left: Math.max(clip.left, r.left),
            top: Math.max(clip.top, r.top),
            right: Math.min(clip.right, r.right),
            bottom: Math.min(clip.bottom, r.bottom),
          };
        }
      }
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        const box = {
          left: Math.max(r.left, clip.left),
          top: Math.max(r.top, clip.top),
          right: Math.min(r.right, clip.right),
          bottom: Math.min(r.bottom, clip.bottom),
        };
        if (box.right - box.left < 1 || box.bottom - box.top < 1) continue;
        boxes.push({ ...box, text: text.slice(0, 40), node: index });
      }
    }
    boxes.sort((a, b) => a.left - b.left);
    const hits: string[] = [];
    const GRAZE = 2;
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i] as Box;
      for (let j = i + 1; j < boxes.length; j++) {
        const b = boxes[j] as Box;
        if (b.left >= a.right - GRAZE) break;
        if (a.node === b.node) continue;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > GRAZE && h > GRAZE)
          hits.push(`"${a.text}" × "${b.text}" at ${Math.round(a.left)},${Math.round(a.top)}`);
      }
    }
    return hits.slice(0, 20);
  });
}

/** How far the page is wider than the window (0 when nothing overflows sideways), and what sticks out. */
export async function sidewaysOverflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const excess = document.documentElement.scrollWidth - window.innerWidth;
    const culprits: string[] = [];
    if (excess > 0) {
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > window.innerWidth + 0.5 && culprits.length < 8)
          culprits.push(
            `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} → ${Math.round(r.right)}`,
          );
      }
    }
    return { excess, culprits };
  });
}

/**
 * The dashboard at each width of LAYOUT_WIDTHS in each view: nothing wider than the window, no two
 * text boxes over each other, every table inside its panel (scrolling there when wider), and no
 * serious or critical axe-core violation in the dark and the light theme. Each view is loaded once
 * and the window resized to the next width, as a user drags it: a load of a big fabric is the
 * costliest step of the check.
 */
export async function checkLayout(
  page: Page,
  url: string,
  views: readonly LayoutView[],
  options: {
    /** Where a full-page screenshot of each view and width goes. */
    screenshot?: (name: string) => string;
    /** More checks at each view and width (e.g. the drawing's own labels). */
    also?: (page: Page, where: string) => Promise<void>;
  } = {},
): Promise<void> {
  for (const view of views) {
    let themes: ('dark' | 'light')[] = ['dark', 'light'];
    for (const [i, width] of LAYOUT_WIDTHS.entries()) {
      await page.setViewportSize({ width, height: 1000 });
      if (i === 0) {
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.goto(`${url}/${view.query}`);
        await expect(page.getByTestId('host-transmit-total')).not.toHaveText('—', { timeout: 60_000 });
      } else {
        await afterResize(page, width);
      }
      await view.ready(page);
      const where = `${view.name} at ${width} px`;
      await checkBoxes(page, where);
      await options.also?.(page, where);
      // The theme the page is in first (left by the width before), then the other.
      for (const colorScheme of themes) {
        await page.emulateMedia({ colorScheme });
        await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
        expect(await seriousViolations(page, view.axeWithin), `${where}, ${colorScheme} theme: axe`).toEqual(
          [],
        );
      }
      themes = [...themes].reverse();
      if (options.screenshot)
        await page.screenshot({
          path: options.screenshot(`${view.name.replace(/\W+/g, '-')}-${width}`),
          fullPage: true,
        });
    }
  }
}

/** Waits until the page has laid itself out at the window's new width (two frames after it reads it). */
export async function afterResize(page: Page, width: number): Promise<void> {
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** Nothing wider than the window, no text over text, every table inside its panel's body. */
export async function checkBoxes(page: Page, where: string): Promise<void> {
  const overflow = await sidewaysOverflow(page);
  expect(
    overflow.excess,
    `${where}: the page is wider than the window (${overflow.culprits.join(', ')})`,
  ).toBeLessThanOrEqual(0);
  expect(await overlappingTexts(page), `${where}: text over text`).toEqual([]);
  // Every table ends inside its panel's body: wider ones scroll in their own box.
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll('.panel-body table')]
      .filter((t) => {
        const body = t.closest('.panel-body');
        if (!body) return false;
        const b = body.getBoundingClientRect();
        const scroller = t.closest('.table-scroll, .pod-matrix-wrap');
        const r = (scroller ?? t).getBoundingClientRect();
        return r.right > b.right + 0.5 || r.left < b.left - 0.5;
      })
      .map((t) => t.querySelector('caption')?.textContent ?? t.getAttribute('aria-label') ?? t.className),
  );
  expect(outside, `${where}: tables sticking out of their panel`).toEqual([]);
}

/** A rate as the dashboard writes one: digits, an SI prefix, B/s or b/s. */
const RATE = /(-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)\s*([kMGTPEZYRQ]?)([Bb])\/s/g;

/** Significant digits of a printed number (leading zeros, separators and the point do not count). */
export function significantDigits(number: string): number {
  return number.replace(/^-/, '').replace(/e.*$/, '').replace(/[.,]/g, '').replace(/^0+/, '').length;
}

/**
 * Every rate written on the page, in its text and its tooltips (SVG titles, title attributes) and
 * on its charts' axes (the chart writes its tick labels on its element), but not the unit switch's
 * own labels.
 */
export async function ratesOnPage(
  page: Page,
): Promise<{ text: string; number: string; prefix: string; unit: string }[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.display-controls, script, style')) continue;
      // Rendered text, and tooltips of SVG marks (<title>), which render only on hover.
      if (parent.closest('title') || parent.checkVisibility({ visibilityProperty: true }))
        out.push(node.textContent ?? '');
    }
    for (const el of document.querySelectorAll('[title]'))
      if (!el.closest('.display-controls')) out.push(el.getAttribute('title') ?? '');
    for (const el of document.querySelectorAll<HTMLElement>('[data-y-ticks]'))
      out.push(el.dataset.yTicks ?? '');
    return out;
  });
  const rates: { text: string; number: string; prefix: string; unit: string }[] = [];
  for (const text of texts)
    for (const m of text.matchAll(RATE))
      rates.push({
        text: m[0],
        number: m[1] ?? '',
        prefix: m[2] ?? '',
        unit: m[3] === 'b' ? 'bits' : 'bytes',
      });
  return rates;
}
