import { test as base } from '@playwright/test';
import { startDemo } from './demo-process.ts';

/**
 * `test` for the specs that share one demo (`fabscope demo --prometheus`, ar-demo, a real
 * Prometheus from PATH): a worker fixture starts it when the first such spec runs and stops it
 * with the worker, so the specs that start their own demos need not wait for it (it was a global
 * setup, which every worker waited for). The shared-demo project has one worker
 * (playwright.config.ts); after a failure its new worker starts a fresh demo.
 */
export const test = base.extend<object, { sharedDemo: string }>({
  sharedDemo: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      const demo = await startDemo({ scenario: 'ar-demo', prometheus: true });
      process.env.FABSCOPE_E2E_URL = demo.url;
      try {
        await use(demo.url);
      } finally {
        await demo.stop();
      }
    },
    { scope: 'worker', auto: true, timeout: 90_000 },
  ],
});

export { expect } from '@playwright/test';
