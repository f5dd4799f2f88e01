import { expect, type Locator, type Page } from '@playwright/test';

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

  constructor(readonly page: Page) {
    this.adaptiveRouting = page.getByRole('switch', { name: 'Adaptive routing' });
    this.threshold = page.getByLabel('Threshold');
    this.startSeedPairs = page.getByRole('button', { name: /Start seed pairs/ });
    this.stopTraffic = page.getByRole('button', { name: /Stop traffic/ });
    this.busiestLinks = page.getByRole('table', { name: 'Busiest links' });
    this.hostTransmitTotal = page.getByRole('status', { name: 'Host transmit total' });
    this.heatmap = page.getByRole('img', { name: /^Utilization heatmap/ });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.busiestLinks).toBeVisible();
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
    // Columns: #, link, kind, Util %, GB/s, Mpkt/s.
    const cells = await row.getByRole('cell').allInnerTexts();
    const percent = Number(cells[3]?.trim());
    if (!Number.isFinite(percent))
      throw new Error(`no utilization shown for ${linkId}: ${cells.join(' | ')}`);
    return percent;
  }

  /** The host transmit total shown on screen, in GB/s. */
  async shownHostTotalGBps(): Promise<number> {
    const text = (await this.hostTransmitTotal.first().textContent()) ?? '';
    const match = /([\d.]+)\s*GB\/s/.exec(text);
    if (!match?.[1]) throw new Error(`host transmit total reads "${text}"`);
    return Number(match[1]);
  }
}
