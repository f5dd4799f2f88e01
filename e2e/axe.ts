import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe-core violations of the page, one line each. axe-core runs in the
 * page itself (evaluated, so the app's CSP does not stand in the way) and returns the details of
 * its violations only: @axe-core/playwright's AxeBuilder finished each run in a second page and
 * shipped every passing node back (5 MB at fat-tree-6912), 7–11 s a run where axe's own audit
 * takes 2 s. The rules run are the same. `within`: only the elements under that selector.
 */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    (selector) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(
        selector ? { include: [selector] } : document,
        { resultTypes: ['violations'] },
      ),
    within ?? null,
  )) as AxeResults;
  // axe ran its rules over the page (an empty page or a failed injection passes nothing).
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
