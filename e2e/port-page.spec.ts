import { expect, test } from '@playwright/test';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

// A port's page (issue #26): edge1/4 opened from the search box and from the drawing, every
// counter of both directions on it, and its URL opens it again.
test.describe('port page', () => {
  let demo: RunningDemo;
  test.beforeAll(async () => {
    demo = await startDemo({ scenario: 'ar-demo' });
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('edge1/4 opens from the search box and from the drawing; its URL reopens it', async ({ page }) => {
    const dashboard = new Dashboard(page);
    await dashboard.open(demo.url);
    await page.getByRole('combobox', { name: 'Find' }).fill('edge1/4');
    await page.getByRole('search').getByRole('button', { name: 'Open' }).click();
    const portPage = page.getByRole('region', { name: 'Port edge1/4' });
    await expect(portPage).toContainText(/Neighbour\s*core2\/1/);
    await expect(portPage).toContainText(/Port state\s*Active/);
    await expect(portPage).toContainText(/Speed × width\s*4X × 25 Gb\/s/);
    // Counters as opapmaquery names them (ar-demo is Omni-Path), each rate beside its total since the clear.
    const counters = portPage.getByRole('table', { name: 'Counters of edge1/4' });
    await expect(
      counters.getByRole('row', { name: /^Xmit Data\s+\S+ [kMGT]?[Bb]\/s\s+[\d.]+ [kMGTP]?B$/ }),
    ).toBeVisible();
    await expect(counters.getByRole('row', { name: /^Local Link Integ Err\s+0\/s\s+\d/ })).toBeVisible();
    await expect(counters.getByRole('row', { name: /^Link Qual Indicator\s+5/ })).toBeVisible();
    await expect(counters.getByRole('row', { name: /^PortXmitData/ })).toHaveCount(0);
    const load = portPage.getByRole('table', { name: 'Load of edge1/4' });
    await expect(load.getByRole('row', { name: /^Utilization/ })).toBeVisible();
    await expect(
      load.getByRole('row', { name: /^Integrity \(× threshold\)\s+\d+\.\d\d\s+\d+\.\d\d/ }),
    ).toBeVisible();
    await expect(page).toHaveURL(
      /[?&]tool=port&.*port=edge1%2F4|[?&]port=edge1%2F4.*tool=port|[?&]tool=port.*port=edge1\/4|port=edge1\/4.*tool=port/,
    );

    // A node alone is its page: its ports, each opening its own.
    await page.getByRole('combobox', { name: 'Find' }).fill('edge1');
    await page.getByRole('search').getByRole('button', { name: 'Open' }).click();
    const nodePage = page.getByRole('region', { name: 'Node edge1' });
    await expect(nodePage.getByRole('table', { name: 'Ports of edge1' }).getByRole('row')).toHaveCount(5);

    // Find by part of a name, any case (issue #44): "nod" offers nodeA–nodeD; picking one opens it.
    const find = page.getByRole('combobox', { name: 'Find' });
    await find.fill('nod');
    const found = page.getByRole('listbox', { name: 'Nodes and ports found' }).getByRole('option');
    await expect(found).toHaveText([/^nodeA/, /^nodeB/, /^nodeC/, /^nodeD/]);
    await found.first().click();
    await expect(page.getByRole('region', { name: 'Node nodeA' })).toBeVisible();
    await find.fill('NODEB');
    await find.press('Enter');
    await expect(page.getByRole('region', { name: 'Node nodeB' })).toBeVisible();

    // From the drawing: a click on the direction opens its flows, and from there its port.
    await dashboard.clickChannel('edge1/4->core2/1');
    await page.getByRole('button', { name: 'Port edge1/4' }).click();
    await expect(portPage).toBeVisible();

    // The URL alone opens it.
    const url = page.url();
    await page.goto('about:blank');
    await page.goto(url);
    await expect(page.getByRole('region', { name: 'Port edge1/4' })).toContainText(/Neighbour\s*core2\/1/);
  });
});
