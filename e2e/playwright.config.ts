import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@fabscope/test-support';
import { defineConfig } from '@playwright/test';

/**
 * Specs that drive the shared demo (they call sharedDemoUrl or Dashboard.ofSharedDemo, dashboard.ts;
 * shared-demo.ts starts it); every other spec starts its own.
 */
const E2E_DIR = dirname(fileURLToPath(import.meta.url));
const SHARED_DEMO_SPECS = readdirSync(E2E_DIR).filter(
  (f) =>
    f.endsWith('.spec.ts') && /\b(sharedDemoUrl|ofSharedDemo)\(/.test(readFileSync(join(E2E_DIR, f), 'utf8')),
);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Specs that start their own demo run beside each other and beside the specs that share the global
  // demo (which change its traffic and faults, so those run one at a time).
  workers: 3,
  projects: [
    { name: 'shared-demo', testMatch: SHARED_DEMO_SPECS, workers: 1 },
    { name: 'own-demo', testIgnore: SHARED_DEMO_SPECS, fullyParallel: true },
  ],
  retries: 0,
  use: {
    viewport: { width: 1400, height: 1000 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
    trace: 'off',
  },
});
