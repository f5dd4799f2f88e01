import { Dashboard } from './dashboard.ts';
import { expect, test } from './shared-demo.ts';

const ISL_TO_CORE1 = 'edge1/3->core1/1';
const ISL_TO_CORE2 = 'edge1/4->core2/1';

// Seed 002 as an administrator sees it, against `fabscope demo --prometheus` (real Prometheus).
test('two pairs share one ISL under static routing; adaptive routing spreads them over both cores', async ({
  page,
}) => {
  const dashboard = await Dashboard.ofSharedDemo(page);
  await expect(dashboard.adaptiveRouting).toHaveAttribute('aria-checked', 'false');

  await dashboard.startSeedPairs.click();
  await dashboard.showAll('all');

  // Static routing: nodeA→nodeC and nodeB→nodeD both leave edge1 towards core2.
  await expect(async () => {
    const busiest = Math.max(
      await dashboard.shownUtilizationPercent(ISL_TO_CORE1),
      await dashboard.shownUtilizationPercent(ISL_TO_CORE2),
    );
    const idle = Math.min(
      await dashboard.shownUtilizationPercent(ISL_TO_CORE1),
      await dashboard.shownUtilizationPercent(ISL_TO_CORE2),
    );
    expect(busiest).toBeGreaterThanOrEqual(95);
    expect(idle).toBeLessThanOrEqual(5);
    for (const host of ['nodeA/1->edge1/1', 'nodeB/1->edge1/2']) {
      const shown = await dashboard.shownUtilizationPercent(host);
      expect(shown).toBeGreaterThan(45);
      expect(shown).toBeLessThan(55);
    }
    const total = await dashboard.shownHostTotalGBps();
    expect(total).toBeGreaterThanOrEqual(12.0);
    expect(total).toBeLessThanOrEqual(13.0);
  }).toPass({ timeout: 30_000 });

  await page.screenshot({ path: 'e2e/artifacts/seed-002-static.png', fullPage: true });

  // The administrator turns adaptive routing on (threshold 7 = 55 %, the seed's opafm.xml).
  await dashboard.threshold.selectOption('7');
  await dashboard.adaptiveRouting.click();
  await expect(dashboard.adaptiveRouting).toHaveAttribute('aria-checked', 'true');

  await expect(async () => {
    expect(await dashboard.shownUtilizationPercent(ISL_TO_CORE1)).toBeGreaterThanOrEqual(95);
    expect(await dashboard.shownUtilizationPercent(ISL_TO_CORE2)).toBeGreaterThanOrEqual(95);
    const total = await dashboard.shownHostTotalGBps();
    expect(total).toBeGreaterThanOrEqual(24.2);
    expect(total).toBeLessThanOrEqual(25.0);
  }).toPass({ timeout: 20_000 });

  await page.screenshot({ path: 'e2e/artifacts/seed-002-adaptive.png', fullPage: true });
  await dashboard.stopTraffic.click();
});
