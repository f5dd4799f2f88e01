import { defineConfig } from '@playwright/test';

// Debian's chromium, never a downloaded browser. These flags keep it off the network it cannot reach.
export const CHROMIUM_PATH = process.env.FABSCOPE_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  globalSetup: './global-setup.ts',
  use: {
    viewport: { width: 1400, height: 1000 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
  },
});
