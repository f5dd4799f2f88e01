import { parseArgs } from 'node:util';
import { ConfigError, configFromEnv } from '@fabscope/api/config';
import { startDemo } from '../demo.ts';
import { stopOnSignal } from './shared.ts';

function optionalPort(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number, got "${value}"`);
  return n;
}

/** `fabscope demo [--prometheus]`: the whole pipeline in one process (what `npm start` runs). */
export async function demoCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { prometheus: { type: 'boolean', default: false } } });
  const config = configFromEnv();
  const collectorPort = optionalPort('FABSCOPE_COLLECTOR_PORT');
  const prometheusPort = optionalPort('FABSCOPE_PROMETHEUS_PORT');
  const running = await startDemo({
    config,
    prometheus: values.prometheus,
    ...(collectorPort === undefined ? {} : { collectorPort }),
    ...(prometheusPort === undefined ? {} : { prometheusPort }),
  });
  const shown = running.apiUrl.replace('0.0.0.0', '127.0.0.1');
  process.stdout.write(
    [
      `fabscope demo: fabric ${running.fabricName}, store ${running.api.store.kind}`,
      `  dashboard   ${shown}/`,
      `  API         ${shown}/api/v1/ (OpenAPI: ${shown}/api/v1/openapi.json)`,
      `  collector   ${running.collectorUrl}`,
      `  emulator    ${running.emulatorUrl}`,
      ...(running.prometheusUrl ? [`  prometheus  ${running.prometheusUrl}`] : []),
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  stopOnSignal(() => running.stop());
}
