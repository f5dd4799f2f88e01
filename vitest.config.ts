import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The CLI's and the InfiniBand lab's tests first: they drive real servers (Prometheus, VictoriaMetrics, the demo) and wait
 * for wall-clock experiments, tens of seconds each, while the other files are CPU-bound and short.
 * Started first, their waits overlap the rest; Vitest's default order (by the durations it cached,
 * which a fresh clone has not) started some of them last, a tail of ~20 s.
 */
class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Within them, those that run whole experiments through a real Prometheus or the demo (their
    // names say so; the default order is by file size, and pipeline-prometheus.test.ts is three
    // lines that run for 30 s).
    const rank = (f: TestSpecification) =>
      !f.moduleId.includes('/apps/cli/test/') && !f.moduleId.endsWith('-lab.test.ts')
        ? 2
        : /(pipeline|prometheus|history|timestamps|lookback|supervisor)[^/]*\.test\.ts$/.test(f.moduleId)
          ? 0
          : 1;
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: WaitingFilesFirst },
    // Most test files wait on servers (a real Prometheus's first sample, the emulator's ticks), not
    // on the CPU: five files at a time overlap those waits on two cores (Vitest's default there is
    // one, which made the suite ~3× longer; six was slower than five here).
    maxWorkers: 5,
    // A worker keeps the modules it loaded from one file to the next (117 files each importing
    // Fastify, the topology and the emulator spent more CPU on imports than on tests: the run took
    // 92 s isolated, 69 s not). So a test must leave no global behind: restore stubs, timers and
    // environment variables it changes (vi.unstubAllGlobals, vi.useRealTimers), and never register
    // in prom-client's default registry.
    isolate: false,
  },
});
