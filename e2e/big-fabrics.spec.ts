import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';
import { checkLayout, contentionView, routeView } from './layout.ts';

// Named to sort first: Playwright hands out tests in file order, and these two demos (tens of
// seconds of CPU to build and to take two scrapes of 41k and 166k ports) overlap best with the
// specs that mostly wait (time travel, the shared demo) when they start at once, not at the end.

// Three-tier fabrics, up to the largest built-in one, in one tab: per-tier and per-pod tables, then
// down to a pod's cables and a switch's ports.
for (const scenario of ['fat-tree-6912', 'fat-tree-27648']) {
  test.describe(`${scenario} drill-down`, () => {
    test.describe.configure({ mode: 'default', timeout: 200_000 });
    let demo: RunningDemo;
    // fat-tree-27648's first sample comes after one 10 s scrape of 165,888 ports.
    test.beforeAll(async () => {
      test.setTimeout(200_000);
      demo = await startDemo({ scenario, readyTimeoutMs: 180_000 });
    });
    test.afterAll(async () => {
      await demo?.stop();
    });

    test('goes from a pod to its edge × aggregation cables and down to a switch’s ports', async ({
      page,
    }) => {
      await page.goto(demo.url);
      await page.getByRole('button', { name: 'pod 2', exact: true }).click();
      const detail = page.getByRole('region', { name: 'Pod detail' });
      await expect(detail.getByLabel('Pod', { exact: true })).toHaveValue('1');
      // The matrix is one tab stop; arrow keys move between cells, each named with its values.
      const first = detail.locator('button.pod-cell[tabindex="0"]');
      await expect(first).toHaveCount(1);
      await first.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      await expect(page.locator(':focus')).toHaveAttribute(
        'aria-label',
        /^edge\S+ → agg\S+ (\d+\.\d %|—), agg\S+ → edge\S+ (\d+\.\d %|—), wait (\d+\.\d %|—)/,
      );
      await expect(page.locator(':focus')).toHaveAttribute('data-cell', '1:1');
      // The alarms counted in the header (issue 44), in view at the top of the page.
      await expect(page.getByTestId('alarm-counts')).toContainText(/alarms\s+(none|\d)/);
      await expect(page.getByTestId('alarm-counts')).toBeInViewport();
      // Its colours, written in place with its name on each message (PodDrillDown's writePodCells).
      // (Chromium writes the direction back as "to right bottom".)
      await expect(page.locator(':focus')).toHaveAttribute(
        'style',
        /background: linear-gradient\(to (bottom right|right bottom), rgb\(/,
      );
      // A switch's name opens its ports.
      const edge = detail.locator('tbody th button').first();
      const name = (await edge.textContent()) ?? '';
      await edge.click();
      const ports = detail.getByRole('table', { name: `Ports of ${name}` });
      await expect(ports.getByRole('row')).toHaveCount(1 + 48);
      expect(await seriousViolations(page)).toEqual([]);
      // The drill-down is in the URL: a reload (or a link) opens the same pod and switch.
      await expect(page).toHaveURL(new RegExp(`[?&]pod=2&switch=${name}(&|$)`));
      await page.reload();
      await expect(detail.getByLabel('Pod', { exact: true })).toHaveValue('1');
      await expect(detail.getByRole('table', { name: `Ports of ${name}` }).getByRole('row')).toHaveCount(
        1 + 48,
      );

      // A cell opened (Enter, as a click): its cable's history where one looks, its wait drawn (issue 44).
      const dashboard = new Dashboard(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await detail.locator('button.pod-cell[tabindex="0"]').focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/[?&]tool=link/);
      await dashboard.expectHistoryRevealed();
      await dashboard.expectWaitSeries();
      // One of the switch's ports found by name: its page with the node's GUID and LID.
      const find = page.getByRole('combobox', { name: 'Find' });
      await find.fill(`${name}/1`);
      await find.press('Enter');
      const port = page.getByRole('region', { name: `Port ${name}/1` });
      await expect(port).toContainText(/GUID 0x[0-9a-f]{16}/);
      await expect(port).toContainText(/LID \d+/);
      await expect(port.getByRole('table', { name: `Counters of ${name}/1` })).toContainText(/Xmit ?Data/);
    });

    test('holds its layout at 1280 and 1600 px: tier and pod tables, route and contention inside the window', async ({
      page,
    }, testInfo) => {
      test.setTimeout(600_000);
      await checkLayout(
        page,
        demo.url,
        [
          routeView('host1', 'host2000'),
          // Over 96 hosts: a check of all 27,648 takes the API's CPU for a minute on a shared machine.
          contentionView('shift:1', 'host[1-96]'),
        ],
        {
          screenshot: (name) => testInfo.outputPath(`${scenario}-${name}.png`),
        },
      );
    });
  });
}
