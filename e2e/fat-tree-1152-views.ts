import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { afterResize, LAYOUT_WIDTHS } from './layout.ts';

/** No serious or critical axe-core violation in the dark and the light theme. */
async function axeBothThemes(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
    expect(await seriousViolations(page), `${where}, ${colorScheme} theme: axe`).toEqual([]);
  }
}

/** Whether the element's top edge is inside the window (below `under`, the sticky header's bottom). */
async function topInView(
  page: Page,
  selector: string,
): Promise<{ top: number; under: number; height: number }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const header = document.querySelector('.app-top')?.getBoundingClientRect().bottom ?? 0;
    return {
      top: el ? el.getBoundingClientRect().top : Number.NaN,
      under: header,
      height: window.innerHeight,
    };
  }, selector);
}

/**
 * Issue #44, the views an FM GUI user opens at fabric scale, on the fat-tree-1152 demo of
 * fabric-scale.spec.ts (one demo of 1,152 hosts for both: starting one takes ~35 s of CPU):
 * "Show top: all" reaches every one of its 4,608 directions in a bounded DOM; the two-tier switch
 * drill-down sorts; at 1280 and 1600 px Investigate holds its tables and a heatmap click brings its
 * result into view. Two page loads in all, the window resized between widths. (The Ethernet port
 * page is checked on the router's demo, views.spec.ts.)
 */
export function fatTree1152Views(demoUrl: () => string): void {
  test('"Show top: all" reaches all 4,608 directions; the switch drill-down and page sort by any heading', async ({
    page,
  }) => {
    const dashboard = new Dashboard(page);
    await dashboard.open(demoUrl());
    await dashboard.showAll('all');
    const list = page.getByRole('region', { name: 'Every link direction, ranked (scrolls)' });
    await expect(list).toHaveAttribute('data-total', '4608');
    await expect(page.locator('.all-links-status')).toContainText('of 4,608 link directions read');
    // Scrolled to its end a few times (each end asks for the next page), the last rank is 4,608.
    const last = list.locator('tr[data-link-id]').last().getByRole('cell').first();
    await expect(async () => {
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(last).toHaveText('4608', { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.locator('.all-links-status')).toContainText('4,608 of 4,608 link directions read');
    // A bounded DOM: the rows in view and the overscan, not 4,608.
    expect(await list.locator('tr[data-link-id]').count()).toBeLessThan(80);
    // Back at the top, the first rank is there again.
    await list.evaluate((el) => el.scrollTo(0, 0));
    await expect(list.locator('tr[data-link-id]').first().getByRole('cell').first()).toHaveText('1');

    // The two-tier switch drill-down: a switch's ports, sorted by any heading.
    await page.getByLabel('Switch', { exact: true }).selectOption('edge1');
    const ports = page.getByRole('table', { name: 'Ports of edge1' }).first();
    await expect(ports.getByRole('row')).toHaveCount(49);
    await expect(page).toHaveURL(/[?&]switch=edge1(&|$)/);
    const wait = ports.getByRole('columnheader', { name: /^Wait/ });
    await wait.getByRole('button').click();
    await expect(wait).toHaveAttribute('aria-sort', 'descending');
    await expect(ports.getByRole('columnheader', { name: /^Port/ })).not.toHaveAttribute('aria-sort', /.+/);
    // The switch page (Find "edge1") is the same view, with each port's state.
    await page.getByRole('combobox', { name: 'Find' }).fill('edge1');
    await page.getByRole('search').getByRole('button', { name: 'Open' }).click();
    const page1 = page
      .getByRole('region', { name: 'Node edge1' })
      .getByRole('table', { name: 'Ports of edge1' });
    await expect(page1.getByRole('columnheader', { name: 'State' })).toBeVisible();
    await expect(page1.getByRole('columnheader', { name: /^Errors\/s/ })).toBeVisible();
    await axeBothThemes(page, 'every link direction and the switch views');
  });

  test('at 1280 and 1600 px Investigate holds its tables whole and a heatmap click brings its history into view', async ({
    page,
  }) => {
    for (const [i, width] of LAYOUT_WIDTHS.entries()) {
      await page.setViewportSize({ width, height: 1000 });
      if (i === 0) await page.goto(`${demoUrl()}/?from=host1&to=host1000`);
      else {
        await afterResize(page, width);
        await page.getByRole('tab', { name: 'Route', exact: true }).click();
      }
      await investigateHoldsItsTables(page);
      await heatmapClickRevealsItsHistory(page, i + 1);
    }
  });
}

/** Investigate at least 440 px wide: whole GUIDs in the route hops, the picker's list under its field, "Util now" whole. */
async function investigateHoldsItsTables(page: Page): Promise<void> {
  const hops = page.getByRole('table', { name: 'Route hops' });
  await expect(hops).toBeVisible();
  const tools = page.locator('.area-tools');
  expect((await tools.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(440);
  // Whole GUIDs: the hops table fits its column, no sideways scroll.
  await expect(page.locator('.area-tools .table-scroll').first()).toHaveAttribute('data-overflows', 'false');
  const guid = hops.locator('td.guid').first();
  await expect(guid).toHaveText(/^0x[0-9a-f]{16}$/);
  // The host picker's list opens under its field, aligned with it.
  const from = page.getByRole('combobox', { name: 'From' });
  await from.fill('host1');
  const list = page.getByRole('listbox').first();
  await expect(list).toBeVisible();
  const [field, opened] = [await from.boundingBox(), await list.boundingBox()];
  expect(Math.abs((opened?.x ?? 0) - (field?.x ?? 0))).toBeLessThanOrEqual(2);
  await from.press('Escape');
  // Static routes: "Util now" whole.
  await page.getByRole('tab', { name: 'Static routes' }).click();
  const utilNow = page.locator('.area-tools th', { hasText: 'Util now' }).first();
  await expect(utilNow).toBeVisible();
  const scrolls = await page.locator('.area-tools .table-scroll[data-overflows="true"]').count();
  expect(scrolls).toBe(0);
}

/** From the top of the page, the `nth` ISL cell opened by keyboard: its history just under the header, the Link tab in view. */
async function heatmapClickRevealsItsHistory(page: Page, nth: number): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  const before = await topInView(page, '.area-history');
  // Below the half of the window where a result counts as in view (components/reveal.ts).
  expect(before.top).toBeGreaterThan(before.under + (before.height - before.under) / 2);
  // An ISL cell opened from the keyboard (Enter runs the click's handler).
  const stage = page.getByRole('application', { name: /^Utilization heatmap/ });
  await stage.focus();
  for (let k = 0; k < nth; k++) await stage.press('ArrowRight');
  await stage.press('Enter');
  await expect(page).toHaveURL(/[?&]tool=link/);
  await expect(async () => {
    const history = await topInView(page, '.area-history');
    expect(history.top).toBeGreaterThanOrEqual(history.under - 1);
    expect(history.top).toBeLessThan(history.under + 40);
    const tools = await topInView(page, '.area-tools');
    expect(tools.top).toBeLessThan(tools.height);
  }).toPass({ timeout: 10_000 });
  await expect(page.getByRole('tab', { name: 'Link', selected: true })).toBeInViewport();
}
