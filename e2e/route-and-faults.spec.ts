import { Dashboard, sharedDemoUrl } from './dashboard.ts';
import { expect, test } from './shared-demo.ts';

const ISL_TO_CORE2 = 'edge1/4->core2/1';

// The Investigate panel against the shared ar-demo (real Prometheus): the route of nodeA→nodeC,
// the contention of the seed pairs, congestion under static routing, and a link taken down.
// The demo is shared with seed-002.spec.ts: everything started here is stopped, AR left off.
test('route, contention check, congestion and a link down, as an administrator reads them', async ({
  page,
}) => {
  const dashboard = await Dashboard.ofSharedDemo(page);
  await dashboard.adaptiveRoutingOff();

  try {
    // Route inspector: nodeA → nodeC crosses edge1, core2 and edge2 (fattree tables).
    await dashboard.openTool('Route');
    await page.getByLabel('From', { exact: true }).selectOption('nodeA');
    await page.getByLabel('To', { exact: true }).selectOption('nodeC');
    const hops = page.getByRole('table', { name: 'Route hops' });
    await expect(hops.getByRole('row')).toHaveCount(6);
    await expect(hops.getByRole('row', { name: /core2\s+SW\s+1\s+2\s+100g/ })).toBeVisible();
    // Three switches: 930 ns of a one-switch route plus two switches and two cables.
    await expect(page.getByRole('status', { name: 'Latency' })).toHaveText(/^1170 ns/);
    await expect(page).toHaveURL(/[?&]from=nodeA&to=nodeC/);
    await expect(page.getByRole('img', { name: /route nodeA → nodeC highlighted/ })).toBeVisible();

    // Contention check of the seed pairs: both cross edge1 → core2 under static routing.
    await dashboard.openTool('Contention');
    await expect(page.getByLabel('Pairs')).toHaveValue('nodeA-nodeC,nodeB-nodeD');
    await page.getByRole('button', { name: 'Check contention' }).click();
    await expect(page.getByRole('status', { name: 'Max link load' })).toHaveText('2');
    const shared = page.getByRole('table', { name: 'Shared ISL directions' });
    await expect(
      shared.getByRole('row', { name: /edge1\/4 → core2\/1\s+2\s+nodeA → nodeC, nodeB → nodeD/ }),
    ).toBeVisible();
    const rates = page.getByRole('table', { name: /Expected per-flow rates/ });
    // Half of what the shared ISL delivers: 99 Gb/s of payload (12.38 GB/s), not its 12.50 line rate.
    await expect(rates.getByRole('row', { name: /nodeA → nodeC\s+6\.19 GB\/s/ })).toBeVisible();

    // Run exactly that traffic and compare: measured ≈ 6.19 GB/s per flow, both pairs waiting.
    await page.getByRole('button', { name: 'Run this traffic' }).click();
    await expect(
      // Expected (static), with adaptive routing, measured.
      rates.getByRole('row', { name: /nodeA → nodeC\s+6\.19 GB\/s\s+12\.38 GB\/s\s+6\.[12]\d GB\/s/ }),
    ).toBeVisible();
    // Static routes: the paths the tables send through each switch port, beside what is measured:
    // the shared ISL carries its static paths and, now, both pairs (≥ 95 %).
    await dashboard.openTool('Static routes');
    await expect(page.getByText(/Tables: subnet manager's \(emulated fabric manager\)/)).toBeVisible();
    const busiest = page.getByRole('table', { name: 'Busiest output ports by paths' });
    await expect(async () => {
      const row = busiest.getByRole('row', { name: /edge1\/4 → core2\/1\s+up\s+\d+\s+(9[5-9]|100)\.\d %/ });
      await expect(row).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(
      page.getByRole('table', { name: 'Static route load by tier' }).getByRole('row'),
    ).not.toHaveCount(1);
    await expect(page.getByRole('status', { name: 'Static against measured' })).toHaveText(
      /r = -?\d\.\d\d over \d+ ports/,
    );
    await busiest.getByRole('button', { name: 'edge1/4 → core2/1' }).click();
    await expect(page.getByRole('tab', { name: 'Link', exact: true, selected: true })).toBeVisible();
    await dashboard.showAll('all');
    await page.getByLabel('Sort').selectOption({ label: 'by congestion' });
    await expect(async () => {
      for (const id of [ISL_TO_CORE2, 'nodeA/1->edge1/1', 'nodeB/1->edge1/2']) {
        const wait = await dashboard.shownWaitPercent(id);
        expect(wait).toBeGreaterThan(40);
        expect(wait).toBeLessThan(60);
      }
      expect(await dashboard.shownWaitPercent('edge1/3->core1/1')).toBeLessThan(5);
    }).toPass({ timeout: 30_000 });
    await dashboard.openTool('Route');
    await dashboard.screenshot('e2e/artifacts/route-congestion.png');

    // Faults: take the ISL edge1 → core2 down under the running pairs. The table and the drawing
    // mark it down, and the fabric manager routes both pairs over core1 instead.
    await dashboard.openTool('Faults');
    await page.getByLabel('ISL', { exact: true }).selectOption({ label: 'edge1/4 ↔ core2/1' });
    await page.getByRole('button', { name: 'Take link down' }).click();
    await expect(page.getByRole('list', { name: 'Active faults' })).toContainText(
      /link down\s*edge1\/4 ↔ core2\/1/,
    );
    const downRow = dashboard.busiestLinks.getByRole('row', { name: /edge1\/4 → core2\/1\s*down/ });
    await expect(downRow).toBeVisible();
    await expect(
      dashboard.busiestLinks.getByRole('row', { name: /core2\/1 → edge1\/4\s*down/ }),
    ).toBeVisible();
    await expect(page.getByText(/Links down by the counters.*edge1\/4 ↔ core2\/1/)).toBeVisible();
    await expect(async () => {
      expect(await dashboard.shownUtilizationPercent('edge1/3->core1/1')).toBeGreaterThanOrEqual(95);
      expect(await dashboard.shownUtilizationPercent(ISL_TO_CORE2)).toBeLessThanOrEqual(1);
    }).toPass({ timeout: 30_000 });
    await dashboard.screenshot('e2e/artifacts/link-down.png');

    await page.getByRole('button', { name: 'Repair link down on edge1/4 ↔ core2/1' }).click();
    await expect(page.getByText('No active faults.')).toBeVisible();
    await expect(downRow).toHaveCount(0);
    await dashboard.stopTraffic.click();
  } finally {
    // Leave the shared demo as found: no traffic, no faults, adaptive routing off.
    await fetch(`${sharedDemoUrl()}/api/v1/traffic`, { method: 'DELETE' });
    await fetch(`${sharedDemoUrl()}/api/v1/faults`, { method: 'DELETE' });
    await fetch(`${sharedDemoUrl()}/api/v1/adaptive-routing`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
  }
});
