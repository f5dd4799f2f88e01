import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files wait on servers (a real Prometheus's first sample, the emulator's ticks), not
    // on the CPU: three files at a time overlap those waits on two cores (Vitest's default there is
    // one, which made the suite ~3× longer).
    maxWorkers: 3,
  },
});
