import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

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

    // Both themes on one page: the stylesheet follows prefers-color-scheme as it changes.
    test('is drawn readably and accessibly, in the dark and the light theme', async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${demo.url}/?from=${from}&to=${to}`);
      const drawing = page.locator('svg.fat-tree');
      await expect(drawing.locator('.node').first()).toBeVisible();
      // A sample has arrived: every stroke is coloured or marked, not waiting.
      await expect(page.getByTestId('host-transmit-total')).not.toHaveText('—');

      const labels = await labelQuads(page);
      expect(labels.length).toBeGreaterThan(3);
      expect(overlappingPairs(labels)).toEqual([]);
      // Labels are drawn large enough to read: at least 9 px tall on screen.
      const heights = labels.map((l) =>
        Math.hypot(
          (l.quad[3]?.[0] ?? 0) - (l.quad[0]?.[0] ?? 0),
          (l.quad[3]?.[1] ?? 0) - (l.quad[0]?.[1] ?? 0),
        ),
      );
      expect(Math.min(...heights)).toBeGreaterThanOrEqual(9);

      // The route is outlined: a halo under each of its link directions, the rest dimmed.
      const routeLinks = await page.evaluate(
        async ([url, a, b]) =>
          ((await (await fetch(`${url}/api/v1/route?from=${a}&to=${b}`)).json()) as { links: string[] })
            .links,
        [demo.url, from, to] as const,
      );
      expect(routeLinks.length).toBeGreaterThan(1);
      await expect(drawing.locator('.route-halos line')).toHaveCount(routeLinks.length);
      await expect(drawing.locator('.channel.on-route')).toHaveCount(routeLinks.length);

      if (scenario === 'lustre-storage') {
        await expect(drawing.locator('.network-label')).toHaveText([
          'Ethernet · 40 GbE · 5 hosts',
          'InfiniBand · 56 Gb/s · 5 hosts',
        ]);
        await expect(page.locator('.app-header .chip').first()).toHaveText('Ethernet + InfiniBand');
      }
      if (scenario === 'opa-ethernet-router') {
        await expect(drawing.locator('.node-router .router-mark')).toHaveCount(1);
      }

      for (const colorScheme of ['dark', 'light'] as const) {
        await test.step(`${colorScheme} theme`, async () => {
          await page.emulateMedia({ colorScheme });
          await expect(page.locator('html')).toHaveCSS('color-scheme', colorScheme);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({
            path: testInfo.outputPath(`${scenario}-${colorScheme}.png`),
            fullPage: true,
          });
        });
      }
    });

    if (scenario === 'opa-ethernet-router') {
      test('counts an iperf through the router once in the host transmit total', async ({ page }) => {
        const started = await fetch(`${demo.url}/api/v1/traffic`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 }),
        });
        expect(started.status).toBe(200);
        try {
          const { flows } = (await started.json()) as { flows: { bytesPerSecond: number }[] };
          expect(flows.length).toBe(16);
          const dashboard = new Dashboard(page);
          await page.goto(demo.url);
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
