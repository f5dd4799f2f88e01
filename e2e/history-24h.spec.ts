import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningDemo, startDemo } from './demo-process.ts';

// Issue 44, longer history where it is kept: with a day of history on disk the time bar offers
// 6 h and 24 h (not 7 d), and the 24 h chart asks one point per pixel or fewer, not one per tick.
test.describe('24 h preset with history on disk', () => {
  test.describe.configure({ mode: 'serial' });
  let demo: RunningDemo;
  let dataDir: string;
  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fabscope-e2e-history-'));
    demo = await startDemo({
      scenario: 'ar-demo',
      env: { FABSCOPE_DATA_DIR: dataDir, FABSCOPE_HISTORY_SECONDS: String(24 * 3600) },
    });
  });
  test.afterAll(async () => {
    await demo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const width of [1280, 1600]) {
    test(`offers 24 h and draws it downsampled to the chart at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const kept = await (await page.request.get(`${demo.url}/api/v1/history/kept`)).json();
      expect(kept).toMatchObject({ store: 'embedded', seconds: 86_400, onDisk: true });

      await page.goto(demo.url);
      const ranges = page.getByRole('group', { name: 'Time range' });
      await expect(ranges.getByRole('button', { name: '24 h', exact: true })).toBeVisible();
      await expect(ranges.getByRole('button', { name: '6 h', exact: true })).toBeVisible();
      await expect(ranges.getByRole('button', { name: '7 d', exact: true })).toHaveCount(0);

      const msOf = (v: string | null) =>
        /^\d+(\.\d+)?$/.test(v ?? '') ? Number(v) * 1000 : Date.parse(v ?? '');
      const spanOf = (url: URL) => msOf(url.searchParams.get('to')) - msOf(url.searchParams.get('from'));
      // The question of the 24 h window (a 15 m one may still be on its way).
      const asked = page.waitForRequest(
        (r) => r.url().includes('/api/v1/summary/history') && spanOf(new URL(r.url())) >= 86_400_000,
      );
      await ranges.getByRole('button', { name: '24 h', exact: true }).click();
      await expect(page).toHaveURL(/range=24h/);
      const url = new URL((await asked).url());
      const step = Number.parseFloat(url.searchParams.get('step') ?? '');
      const spanMs = spanOf(url);
      // At most one point per pixel of the page's width (the chart is narrower).
      expect(spanMs / 1000 / step).toBeLessThanOrEqual(width + 2);
      await expect(page.getByTestId('history-total-caption')).toContainText(/one point per \d+ s/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  }
});
