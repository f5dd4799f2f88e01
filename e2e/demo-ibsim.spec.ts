import { startTrafficPairs } from '@fabscope/test-support';
import { expect, test } from '@playwright/test';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';
import { afterResize, checkLayout, routeView, sidewaysOverflow } from './layout.ts';

// `npm run demo:ibsim` (`fabscope demo --fabric ibsim`): ar-demo as a real subnet (ibsim + OpenSM
// ftree, its own IBSIM_SOCKNAME) read by its tools, its traffic the emulator's. Issue 44's views on
// it, at 1280 and 1600 px, in one page session: the layout and axe in both themes, the alarm count in
// the header, the wait in a direction's tooltip and history, a click bringing that history into view,
// Find by part of a name, and an InfiniBand port page (GUID, LID, perfquery's counter names).
test.describe('demo:ibsim', () => {
  let demo: RunningDemo | undefined;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    // As `npm run demo:ibsim` runs it: clearing ibsim's 32-bit counters before they saturate.
    demo = await startDemo({
      scenario: 'ar-demo',
      args: ['--fabric', 'ibsim'],
      env: { FABSCOPE_IB_RESET_COUNTERS: 'true' },
      readyTimeoutMs: 120_000,
    });
    // nodeA and nodeB both send to nodeC: both senders wait for credit, and a congestion alarm is raised.
    await startTrafficPairs(
      demo.url,
      [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeC'],
      ],
      'incast',
    );
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('at 1280 and 1600 px: layout and axe, the alarm count, the wait in tooltip and history, a click revealing it, a port page', async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    if (!demo) throw new Error('the ibsim demo did not start');
    const { url } = demo;
    const waiting = ['nodeA/1->edge1/1', 'edge1/3->core1/1'].map((id) =>
      page.locator(`svg.fat-tree [data-channel-id="${id}"]`),
    );
    await checkLayout(page, url, [routeView('nodeA', 'nodeC')], {
      screenshot: (name) => testInfo.outputPath(`ibsim-${name}.png`),
      also: async (p, where) => {
        await expect(p.getByTestId('alarm-counts'), where).toContainText(/\d+ (warning|error|critical)/, {
          timeout: 30_000,
        });
        // The waiting sender's and ISL's tooltips read their XmitWait as a share, past the seconds in which
        // the 32-bit counter would have saturated: the collector clears it at half, and counts on.
        for (const direction of waiting)
          await expect(direction.locator('title'), where).toContainText(/ · wait (\d|[1-9]\d)\.\d %/, {
            timeout: 15_000,
          });
      },
    });

    // A click on the drawing brings the direction's history (its wait series on) where one looks.
    const dashboard = new Dashboard(page);
    for (const [width, id] of [
      [1600, 'nodeA/1->edge1/1'],
      [1280, 'edge1/3->core1/1'],
    ] as const) {
      await page.setViewportSize({ width, height: 1000 });
      await afterResize(page, width);
      await page.evaluate(() => window.scrollTo(0, 0));
      await dashboard.clickChannel(id);
      await dashboard.expectHistoryRevealed();
      await dashboard.expectWaitSeries(id);
    }

    // Find by part of a name, any case; then a port's page as perfquery names its counters.
    const find = page.getByRole('combobox', { name: 'Find' });
    await find.fill('nod');
    const found = page.getByRole('listbox', { name: 'Nodes and ports found' }).getByRole('option');
    await expect(found).toHaveText([/^nodeA/, /^nodeB/, /^nodeC/, /^nodeD/]);
    await find.fill('EDGE1/4');
    await find.press('Enter');
    const port = page.getByRole('region', { name: 'Port edge1/4' });
    await expect(port).toContainText(/Neighbour\s*core2\/1/);
    await expect(port).toContainText(/GUID 0x[0-9a-f]{16}/);
    await expect(port).toContainText(/LID \d+/);
    const counters = port.getByRole('table', { name: 'Counters of edge1/4' });
    await expect(counters.getByRole('row', { name: /^PortXmitData\s/ })).toBeVisible();
    await expect(counters.getByRole('row', { name: /^PortXmitWait\s/ })).toBeVisible();
    expect((await sidewaysOverflow(page)).excess).toBeLessThanOrEqual(0);
  });
});
