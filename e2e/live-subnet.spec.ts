import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { buildScenario } from '@fabscope/topology';
import { expect, test } from '@playwright/test';
import { Dashboard } from './dashboard.ts';
import { freePort } from './demo-process.ts';

const CLI = fileURLToPath(new URL('../apps/cli/bin/fabscope.js', import.meta.url));

// A live subnet (ibsim + OpenSM) read by `FABSCOPE_FABRIC=infiniband fabscope serve`, as a site runs
// it: a cable plugged into two free ports while the dashboard is open is drawn, ranked and said,
// without a reload (issue 24).
test.describe('live InfiniBand subnet', () => {
  let lab: Lab;
  let child: ChildProcess;
  let url = '';
  test.beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(buildScenario('ar-demo')),
      routing: 'minhop',
      sockName: `e2e-live-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: lab.cwd,
      env: {
        ...process.env,
        ...lab.env,
        FABSCOPE_FABRIC: 'infiniband',
        FABSCOPE_DISCOVER_INTERVAL_MS: '2000',
        // Its own history and events: not those of an earlier run in the default data directory.
        FABSCOPE_DATA_DIR: join(lab.cwd, 'data'),
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await expect(async () => {
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    }).toPass({ timeout: 60_000 });
  });
  test.afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await lab?.stop();
  });

  test('a cable plugged in while the dashboard is open is drawn and ranked without a reload', async ({
    page,
  }) => {
    const dashboard = new Dashboard(page);
    await dashboard.open(url);
    await dashboard.showAll('ISL');
    const strokes = page.locator('svg.fat-tree [data-channel-id]');
    await expect(strokes).toHaveCount(16);
    const rows = dashboard.busiestLinks.getByRole('row');
    // Four ISLs, both directions, and the header.
    await expect(rows).toHaveCount(9);
    let reloaded = false;
    page.on('load', () => {
      reloaded = true;
    });

    await lab.link({ node: 'edge1', port: 10 }, { node: 'core1', port: 10 });
    await expect(rows).toHaveCount(11, { timeout: 40_000 });
    // Drawn in the fabric view too: both directions of the new cable.
    await expect(strokes).toHaveCount(18);
    await expect(
      dashboard.busiestLinks
        .getByRole('row', { name: /edge1\/10 → core1\/10|core1\/10 → edge1\/10/ })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Topology' })).toContainText(
      'Topology changed since loaded: 1 link added.',
    );
    expect(reloaded).toBe(false);
    await page.screenshot({ path: 'e2e/artifacts/live-subnet-cable-added.png', fullPage: true });
  });
});
