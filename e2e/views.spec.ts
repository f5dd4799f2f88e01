import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';
import { checkLayout, contentionView, ratesOnPage, routeView, significantDigits } from './layout.ts';

/**
 * Every small built-in scenario drawn readably: no two labels of the drawing overlap (compared as
 * the real, possibly rotated, boxes the browser laid out), each network named on mixed fabrics, no
 * serious or critical axe-core violation, in the dark and the light theme; and on the router
 * fabric an iperf through the router is counted once in the host transmit total.
 */

/** Each small built-in scenario and a route drawn on it (the screenshot shows its outline). */
const SMALL_SCENARIOS: Record<string, [string, string]> = {
  'ar-demo': ['nodeA', 'nodeC'],
  'single-switch-32': ['node01', 'node17'],
  'opa-ethernet-router': ['opa-node', 'eth-node'],
  'lustre-storage': ['client1-ib', 'lustre-server-ib'],
};

/** The contention check each one's layout is checked with (its tables and tiles). */
const CONTENTION: Record<string, string> = {
  'ar-demo': 'pairs:nodeA-nodeC,nodeB-nodeD',
  'single-switch-32': 'all-to-all',
  'opa-ethernet-router': 'shift:1',
  'lustre-storage': 'shift:1',
};

const ETHERNET_DIRECTIONS = [
  'router/2->eth-switch/1',
  'eth-switch/1->router/2',
  'eth-switch/2->eth-node/1',
  'eth-node/1->eth-switch/2',
];

const api = (url: string, path: string, init?: RequestInit) =>
  fetch(`${url}/api/v1${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init?.headers ?? {}) },
  });

type Quad = [number, number][];

/** The screen quadrilateral of every text of the fabric drawing, with its text. */
async function labelQuads(page: Page): Promise<{ text: string; quad: Quad }[]> {
  return page.locator('svg.fat-tree').evaluate((svg) =>
    [...svg.querySelectorAll('text')].map((t) => {
      const box = (t as SVGGraphicsElement).getBBox();
      const m = (t as SVGGraphicsElement).getScreenCTM();
      const corners: [number, number][] = [
        [box.x, box.y],
        [box.x + box.width, box.y],
        [box.x + box.width, box.y + box.height],
        [box.x, box.y + box.height],
      ];
      const quad = corners.map(([x, y]) =>
        m
          ? ([m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f] as [number, number])
          : ([x, y] as [number, number]),
      );
      return { text: t.textContent ?? '', quad };
    }),
  );
}

/** Separating-axis test; touching edges or a 0.5 px graze do not count as overlap. */
function overlaps(p: Quad, q: Quad): boolean {
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i] ?? [0, 0];
      const [x2, y2] = poly[(i + 1) % poly.length] ?? [0, 0];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const axis = [(y1 - y2) / len, (x2 - x1) / len] as const;
      const project = (r: Quad) => r.map(([x, y]) => x * axis[0] + y * axis[1]);
      const a = project(p);
      const b = project(q);
      if (Math.max(...a) <= Math.min(...b) + 0.5 || Math.max(...b) <= Math.min(...a) + 0.5) return false;
    }
  }
  return true;
}

function overlappingPairs(labels: { text: string; quad: Quad }[]): string[] {
  const hits: string[] = [];
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i];
      const b = labels[j];
      if (a && b && overlaps(a.quad, b.quad)) hits.push(`"${a.text}" × "${b.text}"`);
    }
  return hits;
}

/**
 * The drawing's labels, rotated as laid out, apart and at least 9 px tall; on the route view the
 * route outlined (a halo under each of its link directions, the rest dimmed) and each network named.
 */
async function drawnReadably(
  page: Page,
  where: string,
  scenario: string,
  routeLinks: string[],
): Promise<void> {
  const drawing = page.locator('svg.fat-tree');
  await expect(drawing.locator('.node').first()).toBeVisible();
  const labels = await labelQuads(page);
  expect(labels.length).toBeGreaterThan(3);
  expect(overlappingPairs(labels), `${where}: labels of the drawing`).toEqual([]);
  const heights = labels.map((l) =>
    Math.hypot((l.quad[3]?.[0] ?? 0) - (l.quad[0]?.[0] ?? 0), (l.quad[3]?.[1] ?? 0) - (l.quad[0]?.[1] ?? 0)),
  );
  expect(Math.min(...heights), `${where}: the smallest label`).toBeGreaterThanOrEqual(9);
  if (!where.startsWith('route')) return;
  await expect(drawing.locator('.route-halos line')).toHaveCount(routeLinks.length);
  await expect(drawing.locator('.channel.on-route')).toHaveCount(routeLinks.length);
  if (scenario === 'lustre-storage') {
    await expect(drawing.locator('.network-label')).toHaveText([
      'Ethernet · 40 GbE · 5 hosts',
      'InfiniBand · 56 Gb/s · 5 hosts',
    ]);
    await expect(page.locator('.app-header .chip').first()).toHaveText('Ethernet + InfiniBand');
  }
  if (scenario === 'opa-ethernet-router')
    await expect(drawing.locator('.node-router .router-mark')).toHaveCount(1);
}

for (const [scenario, [from, to]] of Object.entries(SMALL_SCENARIOS)) {
  test.describe(scenario, () => {
    // One demo per scenario: its tests run in order in one worker (not skipped after a failure).
    test.describe.configure({ mode: 'default' });
    let demo: RunningDemo;
    test.beforeAll(async () => {
      demo = await startDemo({ scenario });
    });
    test.afterAll(async () => {
      await demo?.stop();
    });

    // One test, two views, each loaded once and resized from 1280 to 1600 px (checkLayout): the
    // drawing's labels and the route's outline are checked at each width, beside the page's layout
    // and axe in both themes (the stylesheet follows prefers-color-scheme as it changes).
    test('is drawn readably and accessibly at 1280 and 1600 px: nothing sideways, no text over text, axe clean in both themes', async ({
      page,
    }, testInfo) => {
      test.setTimeout(240_000);
      const routeLinks = (
        (await (await api(demo.url, `/route?from=${from}&to=${to}`)).json()) as { links: string[] }
      ).links;
      expect(routeLinks.length).toBeGreaterThan(1);
      await checkLayout(
        page,
        demo.url,
        [routeView(from, to), contentionView(CONTENTION[scenario] ?? 'shift:1')],
        {
          screenshot: (name) => testInfo.outputPath(`${scenario}-${name}.png`),
          also: async (p, where) => drawnReadably(p, where, scenario, routeLinks),
        },
      );
    });

    if (scenario === 'ar-demo') {
      test('congestion is not an error: the seed pairs congest, yet no error mark and Integrity green', async ({
        page,
      }) => {
        const started = await api(demo.url, '/traffic', {
          method: 'POST',
          body: JSON.stringify({
            pattern: 'pairs',
            pairs: [
              ['nodeA', 'nodeC'],
              ['nodeB', 'nodeD'],
            ],
          }),
        });
        expect(started.status).toBe(200);
        try {
          await page.goto(demo.url);
          // The shared up-port waits for credit about half the time (and discards): congestion.
          const shared = page.locator('svg.fat-tree [data-channel-id="edge1/4->core2/1"]');
          await expect
            .poll(async () => Number(await shared.getAttribute('data-wait')), { timeout: 30_000 })
            .toBeGreaterThan(0.3);
          await expect(shared.locator('.wait-marker')).toHaveCount(1);
          // No error mark anywhere, no direction with errors counted, Integrity green everywhere.
          await expect(page.locator('svg.fat-tree rect.error-marker')).toHaveCount(0);
          const errors = await page
            .locator('svg.fat-tree [data-channel-id]')
            .evaluateAll((els) =>
              els.map((e) => e.getAttribute('data-errors')).filter((v) => v !== '' && v !== '0'),
            );
          expect(errors).toEqual([]);
          for (const scope of ['all', 'isl', 'host'])
            await expect(
              page.locator(
                `[data-testid="health-lights"] td[data-category-name="integrity"][data-scope="${scope}"]`,
              ),
            ).toHaveAttribute('data-light', 'ok');
          // The tooltip says so: no errors, its discards listed as congestion.
          await expect(shared.locator('title')).toContainText('errors 0/s');
          await expect(shared.locator('title')).not.toContainText(/Integrity/);
        } finally {
          await api(demo.url, '/traffic', { method: 'DELETE' });
        }
      });

      test('idle, unknown/stale and down are three styles apart, in the drawing and its legend', async ({
        page,
      }) => {
        const fault = await api(demo.url, '/faults', {
          method: 'POST',
          body: JSON.stringify({ type: 'link-down', link: 'edge2/3--core1/2' }),
        });
        expect(fault.status).toBe(200);
        try {
          await page.goto(demo.url);
          const down = page.locator('svg.fat-tree [data-channel-id="core1/2->edge2/3"]');
          await expect(down).toHaveAttribute('data-link-up', 'false', { timeout: 30_000 });
          const strokeOf = (selector: string) =>
            page
              .locator(selector)
              .first()
              .evaluate((el) => {
                const s = getComputedStyle(el);
                return `${s.stroke} ${s.strokeDasharray}`;
              });
          for (const scheme of ['dark', 'light'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            const legend = {
              idle: await strokeOf('.state-legend [data-state="idle"] line'),
              unknown: await strokeOf('.state-legend [data-state="unknown"] line'),
              down: await strokeOf('.state-legend [data-state="down"] line'),
            };
            expect(new Set(Object.values(legend)).size, `${scheme}: ${JSON.stringify(legend)}`).toBe(3);
            // The drawing draws them as the legend shows: a link down as "down", an idle one as "idle".
            expect(await strokeOf('svg.fat-tree [data-channel-id="core1/2->edge2/3"] line')).toBe(
              legend.down,
            );
            expect(
              await strokeOf(
                'svg.fat-tree g.channel[data-utilization="0"]:not(.channel-down):not(.channel-unknown) line',
              ),
            ).toBe(legend.idle);
            // Down is not the red of 100 %: its colour is neutral.
            const [r = 0, g = 0, b = 0] = (legend.down.match(/\d+/g) ?? []).map(Number);
            expect(
              Math.max(r, g, b) - Math.min(r, g, b),
              `${scheme}: down ${legend.down}`,
            ).toBeLessThanOrEqual(25);
          }
        } finally {
          await api(demo.url, '/faults', { method: 'DELETE' });
        }
      });

      test('with Gb/s chosen every rate on the page is in bits, at most 4 significant digits', async ({
        page,
      }) => {
        const started = await api(demo.url, '/traffic', {
          method: 'POST',
          body: JSON.stringify({
            pattern: 'pairs',
            pairs: [
              ['nodeA', 'nodeC'],
              ['nodeB', 'nodeD'],
            ],
            job: 'seed',
          }),
        });
        expect(started.status).toBe(200);
        try {
          const dashboard = new Dashboard(page);
          await page.goto(`${demo.url}/?tool=contention&pattern=pairs:nodeA-nodeC,nodeB-nodeD`);
          await page.getByRole('button', { name: 'Gb/s', exact: true }).click();
          await expect(page.getByRole('button', { name: 'Gb/s', exact: true })).toHaveAttribute(
            'aria-pressed',
            'true',
          );
          await expect(page.getByRole('status', { name: 'Flows' })).toHaveText('2');
          await expect(dashboard.hostTransmitTotal).toHaveText(/Gb\/s/);
          // Traffic, ranking, history axis and caption, contention, tooltips…
          const check = async (where: string, atLeast: number) => {
            const rates = await ratesOnPage(page);
            expect(rates.length, `${where}: rates found`).toBeGreaterThanOrEqual(atLeast);
            expect(
              rates.filter((r) => r.unit !== 'bits').map((r) => r.text),
              `${where}: in bytes`,
            ).toEqual([]);
            expect(
              rates.filter((r) => significantDigits(r.number) > 4).map((r) => r.text),
              where,
            ).toEqual([]);
          };
          await expect(page.locator('[data-y-ticks]').first()).toHaveAttribute('data-y-ticks', /b\/s/);
          await check('contention', 30);
          // …and the jobs: the seed job's busiest links.
          await dashboard.openTool('Jobs');
          await page.getByRole('list', { name: 'Jobs' }).getByRole('button', { name: 'seed' }).click();
          await expect(page.getByRole('table', { name: /Busiest links of the job/ })).toContainText(/Gb\/s/);
          await check('jobs', 30);
          // Back to bytes: the same page in GB/s.
          await page.getByRole('button', { name: 'GB/s', exact: true }).click();
          await expect(dashboard.hostTransmitTotal).toHaveText(/GB\/s/);
          expect((await ratesOnPage(page)).filter((r) => r.unit === 'bits').map((r) => r.text)).toEqual([]);
        } finally {
          await api(demo.url, '/traffic', { method: 'DELETE' });
        }
      });
    }

    if (scenario === 'opa-ethernet-router') {
      test('Ethernet ports show their PFC pause as their wait and no PM category: not measured, never a value', async ({
        page,
      }) => {
        const started = await api(demo.url, '/traffic', {
          method: 'POST',
          body: JSON.stringify({ pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 }),
        });
        expect(started.status).toBe(200);
        try {
          await page.goto(demo.url);
          // The Omni-Path sender waits (it has XmitWait), so the traffic is there.
          const opa = page.locator('svg.fat-tree [data-channel-id="opa-node/1->opa-edge/1"]');
          await expect
            .poll(async () => Number(await opa.getAttribute('data-wait')), { timeout: 30_000 })
            .toBeGreaterThan(0.3);
          // Issue 44 on the router fabric: its tooltip reads the wait, the header counts the alarm it
          // raises, and a click brings the direction's history (with its wait series) where one looks,
          // at both widths.
          await expect(opa.locator('title')).toContainText(/ · wait \d+\.\d %/);
          await expect(page.getByTestId('alarm-counts')).toContainText(/\d+ (warning|error|critical)/, {
            timeout: 30_000,
          });
          const dashboard = new Dashboard(page);
          for (const [width, id] of [
            [1280, 'opa-node/1->opa-edge/1'],
            [1600, 'router/2->eth-switch/1'],
          ] as const) {
            await page.setViewportSize({ width, height: 1000 });
            await page.evaluate(() => window.scrollTo(0, 0));
            await dashboard.clickChannel(id);
            await dashboard.expectHistoryRevealed();
            await dashboard.expectWaitSeries(id);
          }
          await page.getByLabel('Show top').selectOption({ label: 'all' });
          for (const id of ETHERNET_DIRECTIONS) {
            const channel = page.locator(`svg.fat-tree [data-channel-id="${id}"]`);
            // Measured: the emulator's Ethernet ports count PFC pause time (docs/metrics.md, "Lossless Ethernet").
            await expect(channel).toHaveAttribute('data-wait', /^\d/);
            await expect(channel.locator('title')).toContainText('PFC pause');
            await expect(channel.locator('title')).toContainText('PM categories: not measured on Ethernet');
            await expect(channel.locator('title')).not.toContainText(/Congestion/);
            const row = page
              .getByRole('table', { name: 'Busiest links' })
              .locator(`tr[data-link-id="${id}"]`);
            await expect(row.locator('td[data-not-measured="Ethernet"]')).toHaveCount(1);
            await expect(row.locator('[data-category-name]')).toHaveCount(0);
          }
          // The API says the same: a measured pause share, and categories unknown, never a value.
          const { links } = (await (await api(demo.url, '/links?limit=100')).json()) as {
            links: {
              id: string;
              transmitWaitFraction: number | null;
              categories: Record<string, number | null>;
            }[];
          };
          for (const id of ETHERNET_DIRECTIONS) {
            const link = links.find((l) => l.id === id);
            expect(link?.transmitWaitFraction, id).toEqual(expect.any(Number));
            expect(
              Object.values(link?.categories ?? { x: 0 }).every((v) => v === null),
              id,
            ).toBe(true);
          }
        } finally {
          await api(demo.url, '/traffic', { method: 'DELETE' });
        }
      });

      test('an Ethernet port’s page has no GUID, LID or Omni-Path counter; an Omni-Path one has them', async ({
        page,
      }) => {
        await page.goto(`${demo.url}/?tool=port&port=${encodeURIComponent('eth-switch/1')}`);
        const port = page.getByRole('region', { name: 'Port eth-switch/1' });
        await expect(port).toContainText(/Neighbour\s*router\/2/);
        await expect(port).not.toContainText('GUID');
        await expect(port).not.toContainText('LID');
        const counters = port.getByRole('table', { name: 'Counters of eth-switch/1' });
        await expect(counters.getByRole('row', { name: /^ifHCOutOctets/ })).toBeVisible();
        await expect(counters.getByRole('row', { name: /Xmit|Port|VL15|FECN|Integ/ })).toHaveCount(0);
        await expect(port.getByRole('table', { name: 'Load of eth-switch/1' })).not.toContainText(
          'threshold',
        );
        for (const colorScheme of ['dark', 'light'] as const) {
          await page.emulateMedia({ colorScheme });
          await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
          expect(await seriousViolations(page), `the Ethernet port page, ${colorScheme} theme`).toEqual([]);
        }
        // The Omni-Path side of the router, found by part of its name: GUID, LID and opapmaquery's names.
        await page.getByRole('combobox', { name: 'Find' }).fill('opa-edge/1');
        await page.getByRole('combobox', { name: 'Find' }).press('Enter');
        const opa = page.getByRole('region', { name: 'Port opa-edge/1' });
        await expect(opa).toContainText(/GUID 0x[0-9a-f]{16}/);
        await expect(opa).toContainText(/LID \d+/);
        await expect(
          opa.getByRole('table', { name: 'Counters of opa-edge/1' }).getByRole('row', { name: /^Xmit Wait/ }),
        ).toBeVisible();
      });

      test('counts an iperf through the router once in the host transmit total', async ({ page }) => {
        // Only this iperf runs (the tests before may leave their traffic on this demo).
        await fetch(`${demo.url}/api/v1/traffic`, { method: 'DELETE' });
        const dashboard = new Dashboard(page);
        await page.goto(demo.url);
        // iperf -P 16 started from the Traffic panel's form, as an administrator would.
        const form = page.getByRole('form', { name: 'Start traffic' });
        await form.getByLabel('Pattern').selectOption('iperf');
        await form.getByLabel('Sender-receiver').fill('opa-node>eth-node');
        await form.getByLabel('Streams').fill('16');
        await form.getByRole('button', { name: 'Start' }).click();
        try {
          await expect(page.getByRole('list', { name: 'Active flows by job' })).toContainText(
            /16 flows \(1 pair\)/,
          );
          const { flows } = (await (await fetch(`${demo.url}/api/v1/traffic`)).json()) as {
            flows: { from: string; to: string }[];
          };
          expect(flows.length).toBe(16);
          expect(flows.every((f) => f.from === 'opa-node' && f.to === 'eth-node')).toBe(true);
          // The flows' own rate, as the emulator reports it (≈ 12.3 GB/s: 98.6 Gb/s).
          const flowTotal = async () => {
            const body = (await (await fetch(`${demo.url}/api/v1/traffic`)).json()) as {
              flows: { bytesPerSecond: number }[];
            };
            return body.flows.reduce((sum, f) => sum + f.bytesPerSecond, 0) / 1e9;
          };
          await expect(page.getByTestId('host-transmit-total')).not.toHaveText('—');
          await expect
            .poll(async () => (await dashboard.shownHostTotalGBps()) / (await flowTotal()), {
              timeout: 30_000,
            })
            .toBeCloseTo(1, 1);
          const shown = await dashboard.shownHostTotalGBps();
          expect(shown).toBeGreaterThan(11);
          expect(shown).toBeLessThan(13);
          // The router's forwarding leg is drawn busy, but not added to the total.
          const routerOut = page.locator('svg.fat-tree [data-channel-id="router/2->eth-switch/1"]');
          await expect
            .poll(async () => Number(await routerOut.getAttribute('data-utilization')))
            .toBeGreaterThan(0.9);
        } finally {
          await fetch(`${demo.url}/api/v1/traffic`, { method: 'DELETE' });
        }
      });
    }
  });
}
