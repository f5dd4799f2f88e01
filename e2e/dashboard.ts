import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The URL of the shared demo (shared-demo.ts starts it). Specs that use it share that demo and run one at a
 * time (playwright.config.ts finds them by this call).
 */
export function sharedDemoUrl(): string {
  const url = process.env.FABSCOPE_E2E_URL;
  if (!url) throw new Error('the shared demo is not running: import test from ./shared-demo.ts');
  return url;
}

/** Page object for the fabscope dashboard: what a user reads and clicks, by role and label. */
export class Dashboard {
  readonly adaptiveRouting: Locator;
  readonly threshold: Locator;
  readonly startSeedPairs: Locator;
  readonly stopTraffic: Locator;
  readonly busiestLinks: Locator;
  readonly hostTransmitTotal: Locator;
  /** The canvas heatmap big fabrics get instead of the per-link drawing. */
  readonly heatmap: Locator;
  /** Tabs of the Investigate panel: Route, Link, Jobs, Contention, Faults. */
  readonly investigate: Locator;
  /** The bar shown while every panel shows a past instant. */
  readonly viewingBar: Locator;
  readonly backToLive: Locator;
  /** The text under the history chart: window, step, first/last/lowest/highest total. */
  readonly historyCaption: Locator;
  readonly historyChart: Locator;
  readonly events: Locator;
  readonly linkHistory: Locator;

  constructor(readonly page: Page) {
    this.adaptiveRouting = page.getByRole('switch', { name: 'Adaptive routing' });
    this.threshold = page.getByLabel('Threshold', { exact: true });
    this.startSeedPairs = page.getByRole('button', { name: /Start seed pairs/ });
    this.stopTraffic = page.getByRole('button', { name: /Stop traffic/ });
    this.busiestLinks = page.getByRole('table', { name: 'Busiest links' });
    this.hostTransmitTotal = page.getByRole('status', { name: 'Host transmit total' });
    this.heatmap = page.getByRole('img', { name: /^Utilization heatmap/ });
    this.investigate = page.getByRole('tablist', { name: 'Investigate' });
    this.viewingBar = page.getByRole('status', { name: 'Viewing the past' });
    this.backToLive = page.getByRole('button', { name: 'back to live' });
    this.historyCaption = page.getByTestId('history-total-caption');
    this.historyChart = page.getByRole('figure', { name: /^Host transmit total/ });
    this.events = page.getByRole('list', { name: 'Events in this window' });
    this.linkHistory = page.getByRole('region', { name: 'Link history' });
  }

  /** The instant the viewing bar names (ms), or null when live. */
  async viewedInstantMs(): Promise<number | null> {
    if (!(await this.viewingBar.isVisible())) return null;
    const iso = await this.viewingBar.locator('time').getAttribute('datetime');
    return iso ? Date.parse(iso) : null;
  }

  /** Presses one of opatop's time keys (r, R, f, F, L, B, b) on the page, not in a field. */
  async pressTimeKey(key: 'r' | 'R' | 'f' | 'F' | 'L' | 'B' | 'b'): Promise<void> {
    await this.page.locator('body').press(key);
  }

  /** Lowest and highest host transmit total (GB/s) the history chart's caption reads. */
  async historyLowHighGBps(): Promise<{ low: number; high: number }> {
    const text = (await this.historyCaption.textContent()) ?? '';
    const low = /lowest ([^,)]+)/.exec(text)?.[1];
    const high = /highest ([^,)]+)/.exec(text)?.[1];
    const lowGBps = low === undefined ? null : gigabytesPerSecond(low);
    const highGBps = high === undefined ? null : gigabytesPerSecond(high);
    if (lowGBps === null || highGBps === null) throw new Error(`history caption reads "${text}"`);
    return { low: lowGBps, high: highGBps };
  }

  /**
   * The event marks drawn on the history chart's canvas, as the chart writes them on its element:
   * kind, label, time and the label's box (null: a mark without a label), in CSS pixels.
   */
  async historyEventMarks(): Promise<ChartEventMark[]> {
    const raw = await this.historyChart.locator('.uplot').getAttribute('data-event-marks');
    return raw ? (JSON.parse(raw) as ChartEventMark[]) : [];
  }

  /** Shows the events of these kinds only (null: every kind), in the Events panel's Kinds filter. */
  async chooseEventKinds(labels: readonly string[] | null): Promise<void> {
    const filter = this.page.locator('details.kinds-filter');
    if ((await filter.getAttribute('open')) === null) await filter.locator('summary').click();
    const boxes = filter.getByRole('group', { name: 'Event kinds' }).getByRole('checkbox');
    for (const box of await boxes.all()) {
      const name = ((await box.locator('xpath=..').textContent()) ?? '').trim();
      await box.setChecked(labels === null || labels.includes(name));
    }
    await filter.locator('summary').click();
  }

  /** Opens a tab of the Investigate panel. */
  async openTool(name: 'Route' | 'Static routes' | 'Link' | 'Jobs' | 'Contention' | 'Faults'): Promise<void> {
    const tab = this.investigate.getByRole('tab', { name, exact: true });
    // Clicked again until selected, as a user would: a click made while a big fabric's page still shifts its
    // layout can land beside the tab (seen once at 1,152 hosts under the suite's load).
    await expect(async () => {
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true', { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
  }

  /**
   * Clicks a link direction in the fabric drawing (opens its flows in the Link tab), a third of the
   * way along its stroke from the sender: cables cross in the middle of a fat tree's drawing, where
   * the other stroke may lie on top.
   */
  async clickChannel(id: string): Promise<void> {
    const channel = this.page.locator(`svg.fat-tree [data-channel-id="${id}"]`);
    await expect(channel).toBeVisible();
    await channel.scrollIntoViewIfNeeded();
    const point = await channel
      .locator('line')
      .first()
      .evaluate((line: SVGLineElement) => {
        const at = (attr: string) => Number(line.getAttribute(attr));
        const matrix = line.getScreenCTM();
        if (!matrix) throw new Error('the stroke is not rendered');
        const p = new DOMPoint(at('x1') + (at('x2') - at('x1')) / 3, at('y1') + (at('y2') - at('y1')) / 3);
        const screen = p.matrixTransform(matrix);
        return { x: screen.x, y: screen.y };
      });
    await this.page.mouse.click(point.x, point.y);
  }

  /**
   * What a click on the fabric opened is where the user looks: the history's top in the upper half
   * of the window under the sticky header (components/reveal.ts), and the Link tab selected in view.
   */
  async expectHistoryRevealed(): Promise<void> {
    await expect(async () => {
      const { top, under, height } = await this.page.evaluate(() => ({
        top: document.querySelector('.area-history')?.getBoundingClientRect().top ?? Number.NaN,
        under: document.querySelector('.app-top')?.getBoundingClientRect().bottom ?? 0,
        height: window.innerHeight,
      }));
      expect(top).toBeGreaterThanOrEqual(under - 1);
      expect(top).toBeLessThanOrEqual(under + (height - under) / 2);
    }).toPass({ timeout: 10_000 });
    await expect(this.page.getByRole('tab', { name: 'Link', selected: true })).toBeInViewport();
  }

  /** The link history draws the wait of `id` (any direction when not given) beside its utilization. */
  async expectWaitSeries(id?: string): Promise<void> {
    await expect(this.linkHistory.getByRole('checkbox', { name: /Wait \(XmitWait\)/ })).toBeChecked();
    await expect(this.linkHistory).toContainText(id ? `${id.replace('->', ' → ')} wait` : /\S+ → \S+ wait/);
  }

  /** A full-page screenshot from the top (the header is sticky: scrolled, it would cut the page). */
  async screenshot(path: string): Promise<void> {
    await this.page.evaluate(() => window.scrollTo(0, 0));
    await this.page.screenshot({ path, fullPage: true });
  }

  /** Turns adaptive routing off if it is on (specs share one demo). */
  async adaptiveRoutingOff(): Promise<void> {
    if ((await this.adaptiveRouting.getAttribute('aria-checked')) === 'true')
      await this.adaptiveRouting.click();
    await expect(this.adaptiveRouting).toHaveAttribute('aria-checked', 'false');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.busiestLinks).toBeVisible();
  }

  /** The dashboard of the shared demo (shared-demo.ts), for the shared-demo specs. */
  static async ofSharedDemo(page: Page): Promise<Dashboard> {
    const dashboard = new Dashboard(page);
    await dashboard.open(sharedDemoUrl());
    return dashboard;
  }

  /** Shows every link direction of one kind in the ranked table. */
  async showAll(kind: 'ISL' | 'host' | 'all'): Promise<void> {
    await this.page.getByLabel('Show top').selectOption({ label: 'all' });
    await this.page.getByLabel('Link kind').selectOption({ label: kind });
  }

  /** Shows the top `n` link directions of one kind in the ranked table. */
  async showTop(n: number, kind: 'ISL' | 'host' | 'all'): Promise<void> {
    await this.page.getByLabel('Show top').selectOption({ label: String(n) });
    await this.page.getByLabel('Link kind').selectOption({ label: kind });
  }

  /** The utilization percentage shown on screen in the table row of a link direction. */
  async shownUtilizationPercent(linkId: string): Promise<number> {
    const row = this.busiestLinks.locator(`tr[data-link-id="${linkId}"]`);
    // Columns: #, link, kind, Util %, GB/s, Mpkt/s, Wait %.
    const cells = await row.getByRole('cell').allInnerTexts();
    const percent = Number(cells[3]?.trim());
    if (!Number.isFinite(percent))
      throw new Error(`no utilization shown for ${linkId}: ${cells.join(' | ')}`);
    return percent;
  }

  /** The XmitWait percentage (share of time waiting for credit) shown in a link direction's row. */
  async shownWaitPercent(linkId: string): Promise<number> {
    const row = this.busiestLinks.locator(`tr[data-link-id="${linkId}"]`);
    const cells = await row.getByRole('cell').allInnerTexts();
    const percent = Number(cells[6]?.trim());
    if (!Number.isFinite(percent)) throw new Error(`no wait shown for ${linkId}: ${cells.join(' | ')}`);
    return percent;
  }

  /** The host transmit total shown on screen, in GB/s. */
  async shownHostTotalGBps(): Promise<number> {
    const text = (await this.hostTransmitTotal.first().textContent()) ?? '';
    const gbps = gigabytesPerSecond(text);
    if (gbps === null) throw new Error(`host transmit total reads "${text}"`);
    return gbps;
  }
}

export interface ChartEventMark {
  kind: string;
  label: string;
  time: string;
  box: { x: number; y: number; width: number; height: number } | null;
}

/** Pairs of event labels on a chart whose boxes share any area: none, where labels never overlap. */
export function overlappingLabels(marks: readonly ChartEventMark[]): string[] {
  const boxed = marks.filter((m) => m.box !== null);
  const found: string[] = [];
  for (let i = 0; i < boxed.length; i++)
    for (let j = i + 1; j < boxed.length; j++) {
      const a = boxed[i]?.box;
      const b = boxed[j]?.box;
      if (
        a &&
        b &&
        a.x < b.x + b.width &&
        b.x < a.x + a.width &&
        a.y < b.y + b.height &&
        b.y < a.y + a.height
      )
        found.push(`"${boxed[i]?.label}" and "${boxed[j]?.label}"`);
    }
  return found;
}

/**
 * A rate as the dashboard writes it (SI-scaled, in bytes or bits per second as the viewer chose:
 * "12.38 GB/s", "405.2 MB/s", "99.04 Gb/s") in GB/s; null when the text holds none.
 */
export function gigabytesPerSecond(text: string): number | null {
  const match = /(-?[\d,]+(?:\.\d+)?)\s*([kMGTPE]?)(B|b)\/s/.exec(text);
  if (!match?.[1]) return null;
  const scale = { '': 1e-9, k: 1e-6, M: 1e-3, G: 1, T: 1e3, P: 1e6, E: 1e9 }[match[2] ?? ''] ?? 1;
  return (Number(match[1].replaceAll(',', '')) * scale) / (match[3] === 'b' ? 8 : 1);
}
