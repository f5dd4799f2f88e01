import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';
import { afterResize } from './layout.ts';

// Issue 44, alarms first: the count by severity in the header, one click to the list; an alarm
// acknowledged loses its red; cleared, it keeps its text and dates; viewed in the past, the alarms as
// they stood then. At both widths an administrator uses: one demo and one alarm, the window resized
// from 1280 to 1600 px while it is active and back while it is viewed in the past.
test.describe('alarms first at 1280 and 1600 px', () => {
  let demo: RunningDemo;
  test.beforeAll(async () => {
    demo = await startDemo({ scenario: 'single-switch-32' });
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('header count, one click to the list, acknowledged, cleared, then seen in the past', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(demo.url);
    const counts = page.getByTestId('alarm-counts');
    await expect(counts).toContainText('none');
    const form = page.getByRole('form', { name: 'Start traffic' });
    await form.getByLabel('Pattern').selectOption('all-to-all');
    await form.getByRole('button', { name: 'Start' }).click();
    await expect(counts).toContainText(/\d+ (warning|error|critical)/, { timeout: 30_000 });

    const alarms = page.getByRole('region', { name: 'Alarms' });
    const active = alarms.getByRole('list', { name: 'Active alarms' }).getByRole('listitem');
    const first = active.first();
    for (const width of [1280, 1600]) {
      await test.step(`at ${width} px`, async () => {
        if (width !== 1280) {
          await page.setViewportSize({ width, height: 900 });
          await afterResize(page, width);
          await page.evaluate(() => window.scrollTo(0, 0));
          await expect(counts).toBeInViewport();
        }
        // One click: the alarms are in the viewport, focused.
        await counts.click();
        await expect(alarms).toBeInViewport();
        await expect(alarms).toBeFocused();
        await expect(first).toContainText(/\d+ host link directions over the \w+ threshold/);
        // A date on the entry, and the Acknowledge button whole inside the list.
        await expect(first).toContainText(/raised \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
        const button = first.getByRole('button', { name: 'Acknowledge' });
        const list = await alarms.getByRole('list', { name: 'Active alarms' }).boundingBox();
        const box = await button.boundingBox();
        expect(list && box && box.x + box.width <= list.x + list.width + 0.5).toBe(true);
        await noSidewaysScroll(page);
      });
    }

    await alarms.getByLabel('acknowledge as').fill('alice');
    await first.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(first).toHaveAttribute('data-alarm-state', 'acknowledged');
    await expect(first.locator('.chip-severity-error, .chip-severity-critical')).toHaveCount(0);
    await expect(counts).toContainText('acknowledged');
    // The header's count and the alarm states: axe clean in both themes.
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
      expect(await seriousViolations(page), `${colorScheme} theme`).toEqual([]);
    }

    const api = `${demo.url}/api/v1/alarms?state=all`;
    const raised = (await (await page.request.get(api)).json()) as { alarms: { raisedAt: string }[] };
    const raisedMs = Date.parse(raised.alarms[0]?.raisedAt ?? '');
    await page.getByRole('button', { name: 'Stop traffic' }).click();
    await expect(alarms.getByText('No active alarm.')).toBeVisible({ timeout: 30_000 });
    await alarms.getByLabel('cleared too').check();
    const cleared = alarms.getByRole('list', { name: 'Alarms, cleared too' }).getByRole('listitem');
    // Cleared, it keeps its text and says when.
    await expect(cleared.first()).toContainText(/host link directions? over the \w+ threshold/);
    await expect(cleared.first()).toContainText(/cleared \d{4}-\d{2}-\d{2}/);

    // The past, just after it was raised: the header and the list as they stood then, at both widths.
    await page.goto(`${demo.url}/?at=${new Date(raisedMs + 1000).toISOString()}`);
    for (const width of [1600, 1280]) {
      await test.step(`in the past at ${width} px`, async () => {
        if (width !== 1600) {
          await page.setViewportSize({ width, height: 900 });
          await afterResize(page, width);
        }
        await expect(page.getByTestId('alarm-counts')).toContainText(
          /alarms then.*\d+ (warning|error|critical)/,
        );
        const then = page.getByRole('region', { name: 'Alarms' });
        await expect(then).toContainText('as of');
        await expect(
          then.getByRole('list', { name: 'Active alarms' }).getByRole('listitem').first(),
        ).toContainText(/host link directions over the \w+ threshold/);
        await expect(then.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
        await noSidewaysScroll(page);
      });
    }
  });
});

/** No sideways scroll at the window's width. */
async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}
