import { fileURLToPath } from 'node:url';
import { type RunningDemo, startDemo as startDemoProcess } from '@fabscope/test-support';

export { freePort, type RunningDemo } from '@fabscope/test-support';

const CLI = fileURLToPath(new URL('../apps/cli/bin/fabscope.js', import.meta.url));

/**
 * Starts `fabscope demo` as a user would, on free loopback ports, and waits until the API has
 * fresh counter samples. `prometheus` adds `--prometheus` (a real Prometheus from PATH).
 */
export function startDemo(options: {
  scenario: string;
  prometheus?: boolean;
  /** More arguments of `fabscope demo` (e.g. `--fabric ibsim`). */
  args?: readonly string[];
  /** More settings for the demo's environment (FABSCOPE_…). */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<RunningDemo> {
  return startDemoProcess({ bin: CLI, ...options });
}
