import { Dashboard, sharedDemoUrl } from './dashboard.ts';
import { expect, test } from './shared-demo.ts';

const SHARED_ISL = 'edge1/4->core2/1';

// From "this ISL is hot" to "these flows, this job", as an administrator clicks through it.
test('a hot link → the flows crossing it → their job, its nodes and links highlighted', async ({ page }) => {
  const url = sharedDemoUrl();
  const dashboard = new Dashboard(page);
  await dashboard.open(url);
  await dashboard.adaptiveRoutingOff();
  await dashboard.stopTraffic.click();
  await expect(page.getByText('No active flows.')).toBeVisible();

  // The seed pairs run as job "seed", once: the button waits while they run.
  await dashboard.startSeedPairs.click();
  const flowsByJob = page.getByRole('list', { name: 'Active flows by job' });
  await expect(flowsByJob.locator('li[data-job="seed"]')).toHaveAttribute('data-flow-count', '2');
  await expect(dashboard.startSeedPairs).toBeDisabled();

  // Click the shared ISL in the drawing: the Link tab lists both flows and the job.
  await dashboard.clickChannel(SHARED_ISL);
  await expect(dashboard.investigate.getByRole('tab', { name: 'Link' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const panel = page.getByRole('region', { name: 'Link flows' });
  const flows = panel.getByRole('table', { name: /2 flows crossing it/ });
  await expect(flows.getByRole('row', { name: /nodeA → nodeC\s+seed/ })).toBeVisible();
  await expect(flows.getByRole('row', { name: /nodeB → nodeD\s+seed/ })).toBeVisible();

  // Follow the job: the Jobs tab shows its nodes, its busiest links, and the drawing highlights it.
  await panel.getByRole('list', { name: 'Jobs on this link' }).getByRole('button', { name: 'seed' }).click();
  await expect(dashboard.investigate.getByRole('tab', { name: 'Jobs' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const job = page.getByRole('region', { name: 'Job seed' });
  // As Slurm writes a host list; each one on demand.
  await expect(job.getByTestId('job-nodes')).toHaveText('Nodes: nodeA,nodeB,nodeC,nodeD');
  await job.getByRole('button', { name: 'List each of 4' }).click();
  await expect(job.getByTestId('job-nodes')).toHaveText('Nodes: nodeA, nodeB, nodeC, nodeD');
  await expect(job.getByRole('table', { name: /Busiest links of the job/ })).toContainText(
    'edge1/4 → core2/1',
  );
  await expect(page.getByRole('img', { name: /job seed highlighted/ })).toBeVisible();
  await expect(page.locator(`svg.fat-tree [data-channel-id="${SHARED_ISL}"]`)).toHaveClass(/on-route/);
  await expect(page.locator('svg.fat-tree .node-on-route')).toHaveCount(4);

  // Pressing the seed button again adds nothing: still two flows.
  await expect(dashboard.startSeedPairs).toBeDisabled();
  await dashboard.stopTraffic.click();
  await expect(page.getByText('No active flows.')).toBeVisible();
  await expect(dashboard.startSeedPairs).toBeEnabled();
});

interface ApiFlow {
  from: string;
  to: string;
  path: string[];
}

// With adaptive routing on, the Route tab and the drawing show where nodeA's traffic really goes.
test('with adaptive routing on, the highlighted route is the path the flow actually takes', async ({
  page,
}) => {
  const url = sharedDemoUrl();
  const dashboard = new Dashboard(page);
  await dashboard.open(url);
  await dashboard.adaptiveRoutingOff();
  await dashboard.stopTraffic.click();
  await dashboard.startSeedPairs.click();
  await dashboard.threshold.selectOption('7');
  await dashboard.adaptiveRouting.click();
  await expect(dashboard.adaptiveRouting).toHaveAttribute('aria-checked', 'true');

  // Adaptive routing moves one of the two flows to core1: wait until the flows use both cores.
  const flowPath = async (from: string, to: string): Promise<string[]> => {
    const { flows } = (await (await fetch(`${url}/api/v1/traffic`)).json()) as { flows: ApiFlow[] };
    return flows.find((f) => f.from === from && f.to === to)?.path ?? [];
  };
  await expect(async () => {
    const cores = new Set(
      [...(await flowPath('nodeA', 'nodeC')), ...(await flowPath('nodeB', 'nodeD'))]
        .filter((c) => c.startsWith('edge1/'))
        .map((c) => c.split('->')[1]?.split('/')[0]),
    );
    expect(cores).toEqual(new Set(['core1', 'core2']));
  }).toPass({ timeout: 30_000 });

  await dashboard.openTool('Route');
  await page.getByLabel('From', { exact: true }).selectOption('nodeA');
  await page.getByLabel('To', { exact: true }).selectOption('nodeC');
  await expect(async () => {
    const path = await flowPath('nodeA', 'nodeC');
    const drawn = await page
      .locator('svg.fat-tree [data-channel-id].on-route')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-channel-id')));
    expect(new Set(drawn)).toEqual(new Set(path));
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText(/The path flow f\d+ takes now/)).toBeVisible();

  await dashboard.adaptiveRoutingOff();
  await dashboard.stopTraffic.click();
});
