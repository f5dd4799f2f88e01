import { configFromEnv, startApi } from '@fabscope/api';
import { buildScenario } from '@fabscope/topology';
import { WEB_ROOT } from '../demo.ts';
import { stopOnSignal } from './shared.ts';

export const SERVE_USAGE = `fabscope serve
  Runs the API and dashboard alone, reading PROMETHEUS_URL (or scraping FABSCOPE_COLLECTOR_URLS
  itself) and driving the emulator at FABSCOPE_EMULATOR_URL when set. Settings: README.`;

export async function serveCommand(args: string[]): Promise<void> {
  if (args.length > 0)
    throw new Error(`fabscope serve takes no arguments (settings are environment variables)`);
  const config = configFromEnv();
  const api = await startApi(config, buildScenario(config.scenario), { webRoot: WEB_ROOT, logger: true });
  process.stdout.write(`fabscope serve: ${api.url}/ (store ${api.store.kind})\n`);
  stopOnSignal(() => api.close());
}
