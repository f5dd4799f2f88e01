import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';
import { fatTree1152Views } from './fat-tree-1152-views.ts';
import { checkLayout, contentionView, ratesOnPage, routeView, significantDigits } from './layout.ts';

// A 1152-host two-tier fat tree (2304 links): the dashboard switches to the compact stream and a
// canvas heatmap, and the ranked table shows the busy ISL directions; hosts are picked and cells
// read by keyboard. Its own demo, embedded store, one for the file: the tests run in order in one
// worker, each stopping the traffic it started.
test.describe.configure({ mode: 'default' });
let demo: RunningDemo | undefined;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  demo = await startDemo({ scenario: 'fat-tree-1152' });
});

test.afterAll(async () => {
  await demo?.stop();
});

/**
 * host1…host4 on edge1 send to host25…host28 on edge2: every flow crosses two ISL directions; host5
 * sends to host25 too, over the same ISLs (the tables route by destination): host1 waits for credit.
 */
const PAIRS: [string, string][] = [
  ['host1', 'host25'],
  ['host2', 'host26'],
  ['host3', 'host27'],
  ['host4', 'host28'],
  ['host5', 'host25'],
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

  // host1's cell waits (its flow shares the ISL with host5's): its tooltip reads the wait (issue 44).
  const cell = await findHeatmapCell(page, 'host1 on edge1 port 1');
  await page.mouse.move(cell.left + 1, cell.top + 1);
  const tooltip = page.getByRole('tooltip');
  await expect(async () => {
    await page.mouse.move(cell.left + 2, cell.top + 1);
    const wait = /↑[\s\S]*?Wait (\d+\.\d) %/.exec((await tooltip.textContent()) ?? '')?.[1];
    expect(Number(wait)).toBeGreaterThanOrEqual(10);
  }).toPass({ timeout: 20_000 });
  // Click it (its sending half): the Link tab lists its flow.
  await page.mouse.click(cell.left + 1, cell.top + 1);
  await expect(dashboard.investigate.getByRole('tab', { name: 'Link' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const flows = page.getByRole('region', { name: 'Link flows' });
  await expect(flows.getByRole('heading', { level: 3 })).toHaveText('host1/1 → edge1/1');
  await expect(flows.getByRole('table', { name: /1 flow crossing it/ })).toContainText('host1 → host25');
  await fetch(`${url}/api/v1/traffic`, { method: 'DELETE' });
});

/**
 * The top-left corner (page pixels) of the heatmap cell whose tooltip is `title`, found as a user
 * would: moving the pointer over the canvas and reading the tooltip.
 */
async function findHeatmapCell(page: Page, title: string): Promise<{ left: number; top: number }> {
  const box = await page.locator('.heatmap-island canvas').boundingBox();
  if (!box) throw new Error('no heatmap canvas');
  const tip = page.locator('.heatmap-tooltip-title');
  const titleAt = async (x: number, y: number): Promise<string> => {
    await page.mouse.move(x, y);
    return (await tip.count()) > 0 ? ((await tip.textContent()) ?? '') : '';
  };
  // The host-port block is the right-hand one: go down its last column to the first row (edge1),
  // then left along that row to the cell.
  const right = box.x + box.width - 8;
  let y = box.y + 1;
  while (y < box.y + box.height && !(await titleAt(right, y)).endsWith('on edge1 port 24')) y += 2;
  for (let x = right; x > box.x; x -= 3) {
    if ((await titleAt(x, y)) !== title) continue;
    let left = x;
    while ((await titleAt(left - 1, y)) === title) left--;
    let top = y;
    while ((await titleAt(left + 2, top - 1)) === title) top--;
    return { left, top };
  }
  throw new Error(`no heatmap cell "${title}"`);
}

test('contention check at 1,152 hosts: defaults that exist here, every predicted flow measured', async ({
  page,
}) => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  const dashboard = new Dashboard(page);
  await dashboard.open(demo.url);
  await dashboard.openTool('Contention');
  // No nodeA…nodeD on this fabric: the form starts from shift 1, not the seed pairs.
  const contention = page.getByRole('tabpanel', { name: 'Contention' });
  await expect(contention.getByLabel('Pattern')).toHaveValue('shift');
  await expect(contention.getByRole('textbox', { name: 'K', exact: true })).toHaveValue('1');

  await contention.getByLabel('Pattern').selectOption('permutation');
  await contention.getByRole('textbox', { name: 'Seed', exact: true }).fill('7');
  await page.getByRole('button', { name: 'Check contention' }).click();
  await expect(page.getByRole('status', { name: 'Flows' })).toHaveText('1,152');
  await page.getByRole('button', { name: 'Run this traffic' }).click();
  // The run starts exactly the analysed pairs: every one of the 1,152 has a Measured rate.
  const rates = page.getByRole('table', { name: /Expected per-flow rates/ });
  await expect(rates).toContainText('1,152 of 1,152 measured');
  for (const cell of await rates.locator('tbody tr td:last-child').all()) {
    const text = await cell.innerText();
    if (!/measured/.test(text)) expect(text).toMatch(/GB\/s$/);
  }
  // The run is a job of all 1,152 hosts: they read as Slurm writes them (issue 44).
  await dashboard.openTool('Jobs');
  await page.getByRole('list', { name: 'Jobs' }).getByRole('button', { name: 'contention-check' }).click();
  await expect(page.getByTestId('job-nodes')).toHaveText('Nodes: host[1-1152]');
  await fetch(`${demo.url}/api/v1/traffic`, { method: 'DELETE' });
});

test('picks hosts with the searchable combobox and reads heatmap cells with the arrow keys', async ({
  page,
}) => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  await page.goto(demo.url);
  const dashboard = new Dashboard(page);
  await expect(dashboard.heatmap).toBeVisible();
  // 1,152 hosts: a combobox showing a page of matches, not a select of every host.
  const from = page.getByRole('combobox', { name: 'From', exact: true });
  // The two fields and the buttons side by side, none drawn over another.
  const boxes = await Promise.all(
    [
      from,
      page.getByRole('combobox', { name: 'To', exact: true }),
      page.getByRole('button', { name: 'Swap from and to' }),
    ].map(async (l) => (await l.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 }),
  );
  for (let i = 1; i < boxes.length; i++) {
    const [left, right] = [boxes[i - 1], boxes[i]];
    expect(
      left && right && left.x + left.width <= right.x,
      `picker element ${i} overlaps the one before`,
    ).toBe(true);
  }
  await from.fill('host100');
  const options = page.getByRole('listbox', { name: 'From host' }).getByRole('option');
  await expect(options.first()).toHaveText('host100');
  expect(await options.count()).toBeLessThanOrEqual(50);
  await from.press('Enter');
  await expect(from).toHaveValue('host100');
  const to = page.getByRole('combobox', { name: 'To', exact: true });
  await to.fill('host9');
  await to.press('ArrowDown'); // host90, after host9
  await to.press('Enter');
  await expect(to).toHaveValue('host90');
  await expect(page).toHaveURL(/from=host100&to=host90/);

  // The heatmap is one tab stop; arrows move over the cells and each is announced.
  const stage = page.getByRole('application', { name: /Utilization heatmap/ });
  await stage.focus();
  await stage.press('ArrowDown');
  const cursor = page.getByTestId('heatmap-cursor');
  await expect(cursor).toHaveText(/^ISL edge1 ↔ core1: ↑ edge1 → core1 /);
  await stage.press('ArrowDown');
  await stage.press('End');
  await stage.press(' ');
  await expect(cursor).toHaveText(/^host\d+ on edge2 port 24: ↓ edge2 → host\d+ \(host receives\) /);

  expect(await seriousViolations(page)).toEqual([]);
});

test('holds its layout at 1280 and 1600 px: heatmap, route and contention check inside the window', async ({
  page,
}, testInfo) => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  test.setTimeout(300_000);
  await checkLayout(page, demo.url, [routeView('host1', 'host25'), contentionView('permutation:7')], {
    screenshot: (name) => testInfo.outputPath(`fat-tree-1152-${name}.png`),
  });
});

test('a permutation on 1,152 hosts reads in TB/s, every rate with at most 4 significant digits', async ({
  page,
}) => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  const started = await fetch(`${demo.url}/api/v1/traffic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pattern: 'permutation', seed: 7 }),
  });
  expect(started.status).toBe(200);
  try {
    const dashboard = new Dashboard(page);
    await page.goto(`${demo.url}/?tool=contention&pattern=permutation:7`);
    // Thousands of GB/s are written as TB/s: "9.35 TB/s", never "9350.00 GB/s".
    await expect(dashboard.hostTransmitTotal).toHaveText(/^\d{1,3}(\.\d{1,2})? TB\/s$/, { timeout: 30_000 });
    await expect(page.getByRole('status', { name: 'Expected total' })).toHaveText(
      /^\d{1,3}(\.\d{1,2})? TB\/s$/,
    );
    await expect(page.getByRole('status', { name: 'With adaptive routing' })).toHaveText(
      /^\d{1,3}(\.\d{1,2})? TB\/s$/,
    );
    await expect(page.getByRole('list', { name: 'Active flows by job' })).toContainText(/\d TB\/s/);
    await expect(page.locator('[data-y-ticks]').first()).toHaveAttribute('data-y-ticks', /TB\/s/);
    const rates = await ratesOnPage(page);
    expect(rates.filter((r) => r.prefix === 'T').length).toBeGreaterThanOrEqual(4);
    expect(rates.filter((r) => significantDigits(r.number) > 4).map((r) => r.text)).toEqual([]);
    // No estimate above what 1,152 flows can get at 12.38 GB/s each (the links' deliverable rate).
    const adaptive = (await page.getByRole('status', { name: 'With adaptive routing' }).textContent()) ?? '';
    expect(Number.parseFloat(adaptive)).toBeLessThanOrEqual(14.26);
  } finally {
    await fetch(`${demo.url}/api/v1/traffic`, { method: 'DELETE' });
  }
});

fatTree1152Views(() => {
  if (!demo) throw new Error('the fat-tree-1152 demo did not start');
  return demo.url;
});
