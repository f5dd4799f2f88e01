import { expect, test } from '@playwright/test';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

// A 1152-host two-tier fat tree (2304 links): the dashboard switches to the compact stream and a
// canvas heatmap, and the ranked table shows the busy ISL directions. Its own demo, embedded store.
let demo: RunningDemo | undefined;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  demo = await startDemo({ scenario: 'fat-tree-1152' });
});

test.afterAll(async () => {
  await demo?.stop();
});

/** host1…host4 on edge1 send to host25…host28 on edge2: every flow crosses two ISL directions. */
const PAIRS: [string, string][] = [
  ['host1', 'host25'],
  ['host2', 'host26'],
  ['host3', 'host27'],
  ['host4', 'host28'],
];

const isSwitchEnd = (end: string): boolean => /^(edge|core)\d+\//.test(end);

test('a 1152-host fabric is drawn as a canvas heatmap and ranks its busy ISL directions', async ({
  page,
}) => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  const { url } = demo;
  const started = await fetch(`${url}/api/v1/traffic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pattern: 'pairs', pairs: PAIRS }),
  });
  expect(started.status).toBe(200);

  // The ISL directions each flow crosses, from the forwarding tables.
  const busyIsls: string[] = [];
  for (const [from, to] of PAIRS) {
    const route = (await (await fetch(`${url}/api/v1/route?from=${from}&to=${to}`)).json()) as {
      links: string[];
    };
    busyIsls.push(...route.links.filter((id) => id.split('->').every(isSwitchEnd)));
  }
  expect(busyIsls).toHaveLength(2 * PAIRS.length);

  const dashboard = new Dashboard(page);
  await dashboard.open(url);
  await expect(dashboard.heatmap).toBeVisible();
  await expect(dashboard.heatmap).toHaveAccessibleName(
    /fat-tree-1152: ISL matrix of 48 edge × 24 core switches/,
  );
  // No per-link DOM: the SVG drawing is not there.
  await expect(page.locator('[data-channel-id]')).toHaveCount(0);

  // The text alternative names the hottest cells: ISLs leaving edge1 and entering edge2.
  await expect(dashboard.heatmap).toHaveAccessibleDescription(
    /Hottest cells: .*ISL edge1 → core\d+ (9\d|100)\.\d %/,
  );
  await expect(dashboard.heatmap).toHaveAccessibleDescription(/ISL core\d+ → edge2 /);

  await dashboard.showTop(20, 'ISL');
  await expect(async () => {
    for (const id of busyIsls) expect(await dashboard.shownUtilizationPercent(id)).toBeGreaterThanOrEqual(90);
  }).toPass({ timeout: 30_000 });
  await expect(dashboard.busiestLinks.locator('tbody tr')).toHaveCount(20);

  await page.screenshot({ path: 'e2e/artifacts/fabric-scale-1152.png', fullPage: true });
  await fetch(`${url}/api/v1/traffic`, { method: 'DELETE' });
});
