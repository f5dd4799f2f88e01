import { Dashboard, sharedDemoUrl } from './dashboard.ts';
import { expect, test } from './shared-demo.ts';

const ISL = 'edge1/4--core2/1';
const INTO_EDGE1 = 'core2/1->edge1/4';

// Issue 12's "done when": 1000 symbol errors/s on the ISL edge1/4--core2/1 of the shared ar-demo
// (real Prometheus). Within two ticks the API ranks a direction of it first by integrity, past the
// threshold; the dashboard shows it on the drawing, first in the ranking by integrity, in the red
// light of the ISL integrity and in the events panel. Everything started here is repaired.
test('injected symbol errors reach the drawing, the integrity ranking, the lights and the events', async ({
  page,
}) => {
  const url = sharedDemoUrl();
  const dashboard = new Dashboard(page);
  await dashboard.open(url);
  const api = (path: string, init?: RequestInit) => fetch(`${url}/api/v1${path}`, init);

  try {
    const injected = await api('/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'symbol-errors', link: ISL, rate: 1000 }),
    });
    expect(injected.status).toBe(200);
    const injectedAt = Date.now();

    // The API: within two ticks (1 s each in the demo, plus a scrape), a direction of the ISL tops
    // the integrity ranking at or past the threshold.
    await expect(async () => {
      const { links } = (await (await api('/links?sort=integrity&limit=1')).json()) as {
        links: { linkId: string; categories: { integrity: number | null } }[];
      };
      expect(links[0]?.linkId).toBe(ISL);
      expect(links[0]?.categories.integrity ?? 0).toBeGreaterThanOrEqual(1);
    }).toPass({ timeout: 10_000, intervals: [250] });
    expect(Date.now() - injectedAt).toBeLessThan(10_000);

    // The ranking by integrity: a direction of the ISL first, with its health chip.
    await page.getByLabel('Sort').selectOption({ label: 'by integrity' });
    await page.getByLabel('Link kind').selectOption({ label: 'all' });
    const first = dashboard.busiestLinks.locator('tbody tr').first();
    await expect(first).toHaveAttribute('data-link-id', /^(edge1\/4->core2\/1|core2\/1->edge1\/4)$/);
    await expect(first.locator('[data-category-name="integrity"]')).toContainText(
      /Integrity (\d+ %|[\d,]+ × threshold)/,
    );
    expect(Number(await first.getAttribute('data-category'))).toBeGreaterThanOrEqual(1);

    // The drawing: an error mark on the ISL, none on a clean one.
    const channel = page.locator(`g[data-channel-id="${INTO_EDGE1}"]`);
    await expect(channel.locator('rect.error-marker')).toBeVisible();
    await expect(page.locator('g[data-channel-id="edge1/3->core1/1"] rect.error-marker')).toHaveCount(0);
    await expect(channel.locator('title')).toContainText(/link quality 2\/5/);

    // The lights: ISL integrity red (past the threshold).
    await expect(
      page.locator('[data-testid="health-lights"] td[data-category-name="integrity"][data-scope="isl"]'),
    ).toHaveAttribute('data-light', 'over');

    // The worst directions under the lights: the ISL's, and it opens its flows (the Link tab).
    const worst = page.getByRole('list', { name: 'Worst link directions' }).locator('li').first();
    await expect(worst).toHaveAttribute('data-link-id', /^(edge1\/4->core2\/1|core2\/1->edge1\/4)$/);
    await worst.getByRole('button').click();
    await expect(page.getByRole('tab', { name: 'Link' })).toHaveAttribute('aria-selected', 'true');

    // The events panel: the threshold crossed, as a warning, a button to the direction's history.
    const events = page.getByRole('list', { name: 'Fabric events' });
    const crossed = events.locator(`li[data-kind="threshold"][data-subject="${INTO_EDGE1}"]`);
    await expect(crossed).toBeVisible();
    await expect(crossed).toHaveAttribute('data-severity', 'warning');
    await expect(crossed).toContainText(/integrity \d+\.\d\d × threshold/);
    await page.getByLabel('Severity').selectOption({ label: 'critical only' });
    await expect(crossed).toHaveCount(0);
    await page.getByLabel('Severity').selectOption({ label: 'warnings and worse' });
    await expect(crossed).toBeVisible();
    await dashboard.screenshot('e2e/artifacts/errors.png');
    // Written as every link direction on the page is: `core2/1 → edge1/4`.
    await crossed.getByRole('button', { name: 'core2/1 → edge1/4' }).click();
    await expect(page).toHaveURL(/[?&]links=/);
  } finally {
    // Leave the shared demo as found: no faults.
    await api('/faults', { method: 'DELETE' });
  }
});
