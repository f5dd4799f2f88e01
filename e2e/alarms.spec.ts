import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard, overlappingLabels } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

// Alarms that clear (issue #26): an all-to-all on single-switch-32 congests every host link. The
// Events panel shows one or two grouped alarms, not a storm; acknowledging records who; they clear
// when the traffic stops, and stay listed as cleared. The storm of threshold events it leaves on the
// history chart: marks as the events filter chooses, no two labels over each other.
test.describe('alarms', () => {
  let demo: RunningDemo;
  test.beforeAll(async () => {
    demo = await startDemo({ scenario: 'single-switch-32' });
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('an all-to-all raises at most two grouped alarms; acknowledged; cleared when it stops', async ({
    page,
  }) => {
    await page.goto(demo.url);
    const alarms = page.getByRole('region', { name: 'Alarms' });
    await expect(alarms.getByText('No active alarm.')).toBeVisible();
    const form = page.getByRole('form', { name: 'Start traffic' });
    await form.getByLabel('Pattern').selectOption('all-to-all');
    await form.getByRole('button', { name: 'Start' }).click();
    const active = alarms.getByRole('list', { name: 'Active alarms' }).getByRole('listitem');
    await expect(active.first()).toContainText(/\d+ host link directions over the \w+ threshold/, {
      timeout: 30_000,
    });
    expect(await active.count()).toBeLessThanOrEqual(2);
    await alarms.getByLabel('acknowledge as').fill('alice');
    await active.first().getByRole('button', { name: 'Acknowledge' }).click();
    await expect(active.first()).toContainText('acknowledged by alice');
    // Its worst directions, listed once opened (a closed list is not built on every tick).
    const worst = active.first().getByText(/^worst \d+$/);
    const shown = Number((await worst.textContent())?.replace('worst ', ''));
    expect(await active.first().locator('.alarm-members li').count()).toBe(0);
    await worst.click();
    await expect(active.first().locator('.alarm-members li')).toHaveCount(shown);
    await expect(active.first().locator('.alarm-members li').first().getByRole('button')).toBeVisible();

    await page.getByRole('button', { name: 'Stop traffic' }).click();
    await expect(alarms.getByText('No active alarm.')).toBeVisible({ timeout: 30_000 });
    await alarms.getByLabel('cleared too').check();
    const cleared = alarms.getByRole('list', { name: 'Alarms, cleared too' }).getByRole('listitem');
    await expect(cleared.filter({ hasText: 'acknowledged by alice' })).toHaveCount(1);
    await expect(cleared.first()).toContainText('cleared');

    // Every event marked: dozens of threshold crossings within seconds, their labels never overlap.
    const dashboard = new Dashboard(page);
    await page.getByLabel('Severity').selectOption({ label: 'everything' });
    await expect(async () => {
      const marks = await dashboard.historyEventMarks();
      expect(marks.filter((m) => m.kind === 'threshold').length).toBeGreaterThan(10);
      expect(marks.some((m) => m.kind === 'traffic')).toBe(true);
      expect(overlappingLabels(marks)).toEqual([]);
    }).toPass({ timeout: 15_000 });
    // Traffic only: the threshold storm leaves the chart (no AR change or fault on this fabric).
    await dashboard.chooseEventKinds(['traffic']);
    await expect(async () => {
      const kinds = new Set((await dashboard.historyEventMarks()).map((m) => m.kind));
      expect([...kinds]).toEqual(['traffic']);
    }).toPass({ timeout: 10_000 });
    // The Kinds filter open over the page: axe clean.
    await page.getByText('Kinds: 1 of').click();
    await expect(page.getByRole('group', { name: 'Event kinds' })).toBeVisible();
    // It reaches over the panel below, and stays on top of it (each panel is a stacking context of
    // its own): its last kind takes the pointer, not that panel.
    await page
      .getByRole('group', { name: 'Event kinds' })
      .getByRole('checkbox')
      .last()
      .click({ trial: true, timeout: 5_000 });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
