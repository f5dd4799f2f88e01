import { configFromEnv, startApi } from '@fabscope/api';
import { WEB_ROOT } from '../demo.ts';
import { stopOnSignal } from './shared.ts';
import { fabricFromConfig } from './topology.ts';

export async function serveCommand(args: string[]): Promise<void> {
  if (args.length > 0) {
    throw new Error('fabscope serve takes no arguments (settings are environment variables)');
  }
  const config = configFromEnv();
  const { fabric, tables } = fabricFromConfig(config);
  const api = await startApi(config, fabric, { tables, webRoot: WEB_ROOT, logger: true });
  process.stdout.write(`fabscope serve: ${api.url}/ (fabric ${fabric.name}, store ${api.store.kind})\n`);
  stopOnSignal(() => api.close());
}
