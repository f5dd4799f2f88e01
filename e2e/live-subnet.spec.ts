import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Lab, startLab } from '@fabscope/lab';
import { expect, test } from '@playwright/test';
import { Dashboard } from './dashboard.ts';
import { freePort } from './demo-process.ts';

const CLI = fileURLToPath(new URL('../apps/cli/bin/fabscope.js', import.meta.url));

/** ar-demo as an ibsim net file (4x EDR: w=2 s=4 e=2, the demo's 100 Gb/s); 48-port switches. */
const AR_DEMO = [
  'Switch\t48 "edge1"',
  '[1]\t"nodeA"[1]\tw=2 s=4 e=2',
  '[2]\t"nodeB"[1]\tw=2 s=4 e=2',
  '[3]\t"core1"[1]\tw=2 s=4 e=2',
  '[4]\t"core2"[1]\tw=2 s=4 e=2',
  '',
  'Switch\t48 "edge2"',
  '[1]\t"nodeC"[1]\tw=2 s=4 e=2',
  '[2]\t"nodeD"[1]\tw=2 s=4 e=2',
  '[3]\t"core1"[2]\tw=2 s=4 e=2',
  '[4]\t"core2"[2]\tw=2 s=4 e=2',
  '',
  'Switch\t48 "core1"',
  '[1]\t"edge1"[3]\tw=2 s=4 e=2',
  '[2]\t"edge2"[3]\tw=2 s=4 e=2',
  '',
  'Switch\t48 "core2"',
  '[1]\t"edge1"[4]\tw=2 s=4 e=2',
  '[2]\t"edge2"[4]\tw=2 s=4 e=2',
  '',
  ...['A', 'B', 'C', 'D'].flatMap((h, i) => [
    `Hca\t1 "node${h}"`,
    `[1]\t"edge${i < 2 ? 1 : 2}"[${(i % 2) + 1}]\tw=2 s=4 e=2`,
    '',
  ]),
].join('\n');

// A live subnet (ibsim + OpenSM) read by `FABSCOPE_FABRIC=infiniband fabscope serve`, as a site runs
// it: a cable plugged into two free ports while the dashboard is open is drawn, ranked and said,
// without a reload (issue 24).
test.describe('live InfiniBand subnet', () => {
  let lab: Lab;
  let child: ChildProcess;
  let url = '';
  test.beforeAll(async () => {
    lab = await startLab({
      net: AR_DEMO,
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
    // No emulator on a live fabric: the Traffic panel says so instead of failing.
    await expect(page.getByRole('note', { name: 'Traffic control' })).toContainText(
      'this API reads a live fabric (no emulator attached)',
    );
    await expect(page.getByRole('button', { name: 'Stop traffic' })).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/live-subnet-cable-added.png', fullPage: true });
  });
});
