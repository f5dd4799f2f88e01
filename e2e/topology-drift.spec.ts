import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningDemo, startDemo } from './demo-process.ts';

/**
 * The intended design of ar-demo as an ibsim net file, but for one cable: the design has edge1/3
 * cabled to core1/5, the demo's fabric has it on core1/1. 4x EDR (w=2 s=4 e=2) is the demo's
 * 100 Gb/s, so speeds agree.
 */
const GOLDEN = `# ar-demo as designed, one cable elsewhere
Hca\t1 "nodeA"
[1]\t"edge1"[1]\tw=2 s=4 e=2

Switch\t48 "edge1"
[1]\t"nodeA"[1]\tw=2 s=4 e=2
[2]\t"nodeB"[1]\tw=2 s=4 e=2
[3]\t"core1"[5]\tw=2 s=4 e=2
[4]\t"core2"[1]\tw=2 s=4 e=2

Switch\t48 "edge2"
[1]\t"nodeC"[1]\tw=2 s=4 e=2
[2]\t"nodeD"[1]\tw=2 s=4 e=2
[3]\t"core1"[2]\tw=2 s=4 e=2
[4]\t"core2"[2]\tw=2 s=4 e=2

Switch\t48 "core1"
[2]\t"edge2"[3]\tw=2 s=4 e=2
[5]\t"edge1"[3]\tw=2 s=4 e=2

Switch\t48 "core2"
[1]\t"edge1"[4]\tw=2 s=4 e=2
[2]\t"edge2"[4]\tw=2 s=4 e=2

Hca\t1 "nodeB"
[1]\t"edge1"[2]\tw=2 s=4 e=2

Hca\t1 "nodeC"
[1]\t"edge2"[1]\tw=2 s=4 e=2

Hca\t1 "nodeD"
[1]\t"edge2"[2]\tw=2 s=4 e=2
`;

// Drift from the intended design (issue 24): the demo started with FABSCOPE_EXPECTED_TOPOLOGY set to
// a design that differs from its fabric by one cable; the dashboard's Topology panel lists it as
// one miswired cable, once it has held the stability window (1 s here).
test.describe('topology drift', () => {
  let demo: RunningDemo;
  let dir: string;
  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-e2e-drift-'));
    const golden = join(dir, 'ar-demo-design.net');
    writeFileSync(golden, GOLDEN);
    demo = await startDemo({
      scenario: 'ar-demo',
      env: { FABSCOPE_EXPECTED_TOPOLOGY: golden, FABSCOPE_DRIFT_STABLE_SECONDS: '1' },
    });
  });
  test.afterAll(async () => {
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a cable on another port than designed is one miswired finding in the Topology panel', async ({
    page,
  }) => {
    await page.goto(demo.url);
    const panel = page.getByRole('region', { name: 'Topology' });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('1 finding.');
    await expect(panel).toContainText('Design: ar-demo-design.net.');
    const rows = panel.getByRole('table', { name: 'Drift from the intended design' }).getByRole('row');
    // the header and one finding
    await expect(rows).toHaveCount(2);
    const finding = rows.nth(1);
    await expect(finding.getByRole('cell').nth(0)).toHaveText('miswired');
    await expect(finding.getByRole('cell').nth(1)).toHaveText('edge1/3');
    await expect(finding.getByRole('cell').nth(2)).toHaveText('edge1/3 — core1/5 (4xEDR)');
    await expect(finding.getByRole('cell').nth(3)).toHaveText('edge1/3 — core1/1');
    await expect(finding).toHaveAttribute(
      'title',
      'miswired: edge1/3 should be cabled to core1/5, is cabled to core1/1',
    );
    // Nothing discovered on the emulated fabric: no "topology changed" note.
    await expect(panel.getByRole('status')).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/topology-drift.png', fullPage: true });
  });
});
