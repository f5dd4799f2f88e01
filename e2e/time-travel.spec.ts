import { expect, type Page, test } from '@playwright/test';
import { Dashboard, overlappingLabels } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

// Seed 002 with history: the pairs start at T0, adaptive routing goes on at T1 ≈ T0 + 20 s; the
// administrator scrubs back before T1 with opatop's keys and reads the static figure, and sees the
// step and the AR change on the history chart. With each store, each with its own demo: the spec
// changes adaptive routing and needs a history no other spec has touched.
const ISL_TO_CORE1 = 'edge1/3->core1/1';
const ISL_TO_CORE2 = 'edge1/4->core2/1';

async function scrubThroughAnArChange(page: Page, url: string, store: string): Promise<void> {
  const dashboard = new Dashboard(page);
  await dashboard.open(`${url}/?range=5m`);
  await dashboard.adaptiveRoutingOff();

  // T0: the seed pairs start; the live total settles at the static figure.
  await dashboard.startSeedPairs.click();
  const t0 = Date.now();
  await expect(async () => {
    const total = await dashboard.shownHostTotalGBps();
    expect(total).toBeGreaterThanOrEqual(12.2);
    expect(total).toBeLessThanOrEqual(12.6);
  }).toPass({ timeout: 20_000 });

  // T1 ≈ T0 + 20 s: adaptive routing on (threshold 7 = 55 %, the seed's opafm.xml).
  await page.waitForFunction((until) => Date.now() >= until, t0 + 20_000, { timeout: 30_000, polling: 250 });
  await dashboard.threshold.selectOption('7');
  await dashboard.adaptiveRouting.click();
  const t1 = Date.now();
  await expect(dashboard.adaptiveRouting).toHaveAttribute('aria-checked', 'true');
  await expect(async () => {
    const total = await dashboard.shownHostTotalGBps();
    expect(total).toBeGreaterThanOrEqual(24.2);
    expect(total).toBeLessThanOrEqual(25.0);
  }).toPass({ timeout: 20_000 });

  // The history chart: the step from the static to the adaptive figure, and the AR change on it.
  // Its highest point is a maximum over every sample, within the band too: the collector
  // stamps its counters with their read time and the rules take deriv(), so a scrape served late
  // on a loaded machine no longer reads high (26.5 was seen before, docs/metrics.md).
  await expect(async () => {
    const { low, high } = await dashboard.historyLowHighGBps();
    expect(low).toBeLessThanOrEqual(12.6);
    expect(high).toBeGreaterThanOrEqual(24.2);
    expect(high).toBeLessThanOrEqual(25.0);
  }).toPass({ timeout: 20_000 });
  const arEvent = dashboard.events.getByRole('listitem').filter({ hasText: /AR off → on/ });
  await expect(arEvent).toHaveCount(1);
  await expect(dashboard.historyChart.locator('canvas').first()).toBeVisible();
  await chartMarksFollowTheEventsFilter(dashboard);

  // opatop's keys: R steps back 5 ticks at a time until the instant shown is before T1.
  await expect(dashboard.viewingBar).toBeHidden();
  for (let i = 0; i < 20; i++) {
    await dashboard.pressTimeKey('R');
    const at = await dashboard.viewedInstantMs();
    if (at !== null && at < t1 - 2000) break;
  }
  const viewed = await dashboard.viewedInstantMs();
  expect(viewed).not.toBeNull();
  expect(viewed as number).toBeLessThan(t1 - 2000);
  expect(viewed as number).toBeGreaterThan(t0 + 3000);
  await expect(dashboard.viewingBar).toContainText('Viewing');

  // Every panel shows that instant: the static figure, and the ISL to core1 idle.
  await expect(async () => {
    const total = await dashboard.shownHostTotalGBps();
    expect(total).toBeGreaterThanOrEqual(12.2);
    expect(total).toBeLessThanOrEqual(12.6);
  }).toPass({ timeout: 15_000 });
  await dashboard.showAll('all');
  await expect(async () => {
    expect(await dashboard.shownUtilizationPercent(ISL_TO_CORE1)).toBeLessThanOrEqual(5);
  }).toPass({ timeout: 15_000 });
  expect(new URL(page.url()).searchParams.get('at')).not.toBeNull();

  // Bookmark it, go live, recall it.
  await dashboard.pressTimeKey('B');
  await dashboard.pressTimeKey('L');
  await expect(dashboard.viewingBar).toBeHidden();
  await expect(async () => {
    expect(await dashboard.shownHostTotalGBps()).toBeGreaterThanOrEqual(24.2);
  }).toPass({ timeout: 15_000 });
  await dashboard.pressTimeKey('b');
  expect(await dashboard.viewedInstantMs()).toBe(viewed);

  // The ISL to core1's history: idle before T1, busy after, opened from the ranking.
  await dashboard.busiestLinks
    .locator(`tr[data-link-id="${ISL_TO_CORE1}"]`)
    .getByRole('button', { name: /edge1\/3 → core1\/1/ })
    .click();
  await expect(dashboard.linkHistory).toBeVisible();
  await expect(dashboard.linkHistory.locator('canvas').first()).toBeVisible();
  await expect(dashboard.linkHistory).toContainText(ISL_TO_CORE1.replace('->', ' → '));
  // …and the other ISL's from the drawing: both share the chart.
  await dashboard.clickChannel(ISL_TO_CORE2);
  await expect(dashboard.linkHistory.getByRole('listitem')).toHaveCount(2);
  await expect(dashboard.linkHistory).toContainText(ISL_TO_CORE2.replace('->', ' → '));
  // Each direction's XmitWait is drawn beside its utilization on the same chart, and can be hidden.
  const waitLines = dashboard.linkHistory.getByRole('checkbox', { name: /Wait \(XmitWait\)/ });
  await expect(waitLines).toBeChecked();
  await expect(dashboard.linkHistory).toContainText(`${ISL_TO_CORE2.replace('->', ' → ')} wait`);
  // …and its errors/s, on the same chart's second axis (issue 44).
  await expect(dashboard.linkHistory.getByRole('checkbox', { name: /Errors\/s/ })).toBeChecked();
  await expect(dashboard.linkHistory).toContainText(`${ISL_TO_CORE2.replace('->', ' → ')} errors/s`);

  // Before/after either side of the AR change: the totals and the direction that changed most.
  await page.getByRole('button', { name: 'around the last AR change' }).click();
  const totals = page.getByRole('table', { name: 'Totals before and after' });
  await expect(async () => {
    const cells = await totals
      .getByRole('row', { name: /Host transmit total/ })
      .getByRole('cell')
      .allInnerTexts();
    const [before, after] = cells.map((c) => Number(/([\d.]+) GB\/s/.exec(c)?.[1]));
    // The seed's bounds (12.2–12.6, 24.2–25.0) are held above by the live figures; an instant
    // either side of the change is one rate reading, which a late scrape moves by a few per cent
    // with Prometheus (12.61 and 25.9 seen under the suite's own load): within 5 % of 12.4 and 24.7.
    expect(Math.abs((before ?? Number.NaN) / 12.4 - 1)).toBeLessThanOrEqual(0.05);
    expect(Math.abs((after ?? Number.NaN) / 24.7 - 1)).toBeLessThanOrEqual(0.05);
  }).toPass({ timeout: 15_000 });
  // Both sides counted: congested directions and the utilization histogram (issue 44); one unit per table.
  const sides = page.getByRole('table', { name: 'Link directions before and after' });
  await expect(sides.locator('tr[data-bucket]')).toHaveCount(10);
  await expect(sides.locator('tr[data-congested="isl"]').getByRole('cell').first()).toHaveText(/^\d+$/);
  const totalCells = await totals
    .getByRole('row', { name: /Host transmit total/ })
    .getByRole('cell')
    .allInnerTexts();
  expect(new Set(totalCells.slice(0, 2).map((c) => /\S+\/s/.exec(c)?.[0])).size).toBe(1);
  const changed = page.getByRole('table', { name: 'Links that changed most' });
  await expect(changed.locator(`tr[data-link-id="${ISL_TO_CORE1}"]`)).toBeVisible();
  // The ISL to core2 stays busy, but its wait falls: what AR fixed is listed too (issue 44).
  const core2 = changed.locator(`tr[data-link-id="${ISL_TO_CORE2}"]`);
  await expect(core2).toBeVisible();
  const waitDelta = Number((await core2.getByRole('cell').nth(4).innerText()).replace('−', '-'));
  expect(waitDelta).toBeLessThanOrEqual(-20);

  await dashboard.screenshot(`e2e/artifacts/time-travel-${store}.png`);

  await dashboard.backToLive.click();
  await expect(dashboard.viewingBar).toBeHidden();
  await dashboard.stopTraffic.click();
}

/**
 * The chart's event marks follow the Events panel's filter (severity and kinds), adaptive-routing
 * changes always, and no two labels overlap. The window holds the seed pairs' start (a traffic
 * event, info) and the AR change (info).
 */
async function chartMarksFollowTheEventsFilter(dashboard: Dashboard): Promise<void> {
  const kinds = async () => new Set((await dashboard.historyEventMarks()).map((m) => m.kind));
  const fabricEvents = dashboard.page.getByRole('list', { name: 'Fabric events' });
  // "warnings and worse" (the default): the AR change marked, the traffic start (info) not.
  await expect(async () => {
    const shown = await kinds();
    expect(shown.has('adaptive-routing')).toBe(true);
    expect(shown.has('traffic')).toBe(false);
  }).toPass({ timeout: 10_000 });
  // Everything: the traffic start too.
  await dashboard.page.getByLabel('Severity').selectOption({ label: 'everything' });
  await expect(async () => expect((await kinds()).has('traffic')).toBe(true)).toPass({ timeout: 10_000 });
  await expect(fabricEvents.locator('li[data-kind="traffic"]').first()).toBeVisible();
  // Threshold events only: no traffic mark, and the AR change still marked (always), though the
  // events list, which follows the filter strictly, no longer shows it.
  await dashboard.chooseEventKinds(['threshold']);
  expect(new URL(dashboard.page.url()).searchParams.get('events')).toBe('threshold');
  await expect(async () => {
    const marks = await dashboard.historyEventMarks();
    expect(
      marks.filter((m) => m.kind !== 'threshold' && m.kind !== 'adaptive-routing' && m.kind !== 'fault'),
    ).toEqual([]);
    expect(marks.some((m) => m.kind === 'adaptive-routing' && m.box !== null)).toBe(true);
  }).toPass({ timeout: 10_000 });
  await expect(fabricEvents.locator('li[data-kind="adaptive-routing"]')).toHaveCount(0);
  await expect(dashboard.events.getByRole('listitem').filter({ hasText: /AR off → on/ })).toHaveCount(1);
  // Every kind at every severity: the most marks this window has, and still no two labels overlap.
  await dashboard.chooseEventKinds(null);
  await expect(async () => {
    const marks = await dashboard.historyEventMarks();
    expect(new Set(marks.map((m) => m.kind)).has('traffic')).toBe(true);
    expect(marks.filter((m) => m.box !== null).length).toBeGreaterThan(0);
    expect(overlappingLabels(marks)).toEqual([]);
  }).toPass({ timeout: 10_000 });
  await dashboard.page.getByLabel('Severity').selectOption({ label: 'warnings and worse' });
  expect(new URL(dashboard.page.url()).searchParams.get('events')).toBeNull();
}

for (const store of ['embedded', 'prometheus'] as const) {
  test.describe(`${store} store`, () => {
    let demo: RunningDemo | undefined;

    test.beforeAll(async () => {
      test.setTimeout(90_000);
      demo = await startDemo({ scenario: 'ar-demo', prometheus: store === 'prometheus' });
    });

    test.afterAll(async () => {
      await demo?.stop();
    });

    test('scrubbing back before an adaptive-routing change shows the static figure; the chart shows the step and the change', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      if (!demo) throw new Error(`the ${store} demo did not start`);
      await scrubThroughAnArChange(page, demo.url, store);
    });
  });
}
