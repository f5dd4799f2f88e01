import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { Dashboard } from './dashboard.ts';
import { type RunningDemo, startDemo } from './demo-process.ts';

/** The ISL both pairs share under the ar-demo's static routes (jobs.spec.ts). */
const SHARED_ISL = 'edge1/4->core2/1';

// Issue 42, as an administrator clicks through it: a congestion alarm on the shared ISL → the jobs
// whose traffic crosses it → one job's fabric report naming the other as culprit → the evidence
// instant, opened in time travel on that link.
test.describe('a job’s fabric report from an alarm', () => {
  let demo: RunningDemo;
  const api = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${demo.url}/api/v1${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  test.beforeAll(async () => {
    demo = await startDemo({ scenario: 'ar-demo' });
    await api('/traffic', 'DELETE');
    expect((await api('/adaptive-routing', 'PUT', { enabled: false })).ok).toBe(true);
    // Two jobs, one pair each, both routed over the shared ISL: it runs full and waits for credit.
    for (const [job, from, to] of [
      ['victim', 'nodeA', 'nodeC'],
      ['culprit', 'nodeB', 'nodeD'],
    ]) {
      const started = await api('/traffic', 'POST', { pattern: 'pairs', pairs: [[from, to]], job });
      expect(started.status).toBe(200);
    }
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('congestion alarm → jobs affected → the job’s report → its evidence instant', async ({ page }) => {
    const dashboard = new Dashboard(page);
    await dashboard.open(demo.url);
    const alarms = page.getByRole('region', { name: 'Alarms' });
    const congested = alarms
      .getByRole('list', { name: 'Active alarms' })
      .getByRole('listitem')
      .filter({ hasText: /ISL directions? over the congestion threshold/ });
    await expect(congested.first()).toBeVisible({ timeout: 60_000 });

    // Its jobs, asked once opened: both jobs cross the ISL.
    await congested.first().getByText('jobs affected').click();
    const affected = congested.first().getByRole('list', { name: 'Jobs affected' });
    await expect(affected.locator('li[data-job-id="victim"]')).toContainText(/1 direction, 1 flow/);
    await expect(affected.locator('li[data-job-id="culprit"]')).toBeVisible();

    // The victim's page: the Jobs tab in the URL, the report's verdict first, the culprit ranked.
    await affected.getByRole('button', { name: 'victim' }).click();
    await expect(dashboard.investigate.getByRole('tab', { name: 'Jobs' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(new URL(page.url()).searchParams.get('job')).toBe('victim');
    const report = page.getByRole('region', { name: 'Fabric report of job victim' });
    const verdict = report.getByTestId('job-verdict');
    // Its run grows from a few seconds: read again until time behind the ISL shows (a few ticks).
    await expect(async () => {
      const refresh = report.getByRole('button', { name: 'Refresh' });
      if (await refresh.isEnabled()) await refresh.click();
      await expect(verdict).toContainText('edge1/4 → core2/1', { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(verdict).toContainText('culprit');
    const culprits = report.getByRole('table', { name: 'Culprits' });
    await expect(culprits.getByRole('row').nth(1)).toHaveAttribute('data-job-id', 'culprit');
    const hot = report.getByRole('table', { name: /Hot link directions/ });
    await expect(hot.locator(`tr[data-direction="${SHARED_ISL}"]`)).toContainText('culprit');
    // The report and the alarm's open jobs list: axe clean.
    expect(await seriousViolations(page)).toEqual([]);

    // Back to the evidence: time travel at its instant, on the ISL's Link tab and history.
    const evidence = report.getByRole('region', { name: 'Evidence' }).getByRole('link').first();
    const instant = await evidence.locator('time').getAttribute('datetime');
    expect(instant).not.toBeNull();
    const direction = new URL((await evidence.getAttribute('href')) ?? '').searchParams.get('link');
    expect(direction).toBe(SHARED_ISL);
    await evidence.click();
    await expect(dashboard.viewingBar).toBeVisible();
    expect(await dashboard.viewedInstantMs()).toBe(Date.parse(instant ?? ''));
    await expect(dashboard.investigate.getByRole('tab', { name: 'Link' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('region', { name: 'Link flows' })).toContainText('edge1/4 → core2/1');
    const url = new URL(page.url());
    expect(url.searchParams.get('link')).toBe(SHARED_ISL);
    expect(url.searchParams.get('links')?.split(',')[0]).toBe(SHARED_ISL);
    // The link page names the jobs on it too, each opening its report again.
    await page
      .getByRole('list', { name: 'Jobs on this link' })
      .getByRole('button', { name: 'culprit' })
      .click();
    await expect(page.getByRole('region', { name: 'Fabric report of job culprit' })).toBeVisible();

    // A job page in the URL for a job no source has: the API's reason (one demo for both checks).
    await page.goto(`${demo.url}/?tool=jobs&job=nope`);
    const missing = page.getByRole('region', { name: 'Fabric report of job nope' });
    await expect(missing).toContainText('Report of job nope');
    await expect(missing).toContainText('no job "nope"');
  });
});
