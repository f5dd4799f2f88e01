import { parseArgs } from 'node:util';
import type { ApiConfig } from '@fabscope/api';
import { ConfigError, configFromEnv } from '@fabscope/api/config';
import { SM_ROUTING_ENGINES, type SmRoutingEngine } from '@fabscope/lab';
import { startDemo } from '../demo/demo.ts';
import { startIbsimDemo } from '../demo/ibsim.ts';
import { stopOnSignal } from './shared.ts';

function optionalPort(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number, got "${value}"`);
  return n;
}

function optionalUrl(name: string): string | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

/** `fabscope demo [--prometheus [--alertmanager]] [--fabric ibsim [--routing ftree|minhop|updn]]`. */
export async function demoCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      prometheus: { type: 'boolean', default: false },
      alertmanager: { type: 'boolean', default: false },
      fabric: { type: 'string', default: 'emulator' },
      routing: { type: 'string' },
    },
  });
  // The demo's fabric starts anew each run: its history goes to disk only with FABSCOPE_DATA_DIR.
  const config = { ...configFromEnv(), defaultDataDir: undefined };
  if (values.fabric === 'ibsim') {
    await ibsimDemo(config, values.routing, values.prometheus);
    return;
  }
  if (values.fabric !== 'emulator') {
    throw new ConfigError(`--fabric must be emulator or ibsim, got "${values.fabric}"`);
  }
  if (values.routing !== undefined)
    throw new ConfigError('--routing goes with --fabric ibsim (use FABSCOPE_ROUTING for the emulator)');
  const collectorPort = optionalPort('FABSCOPE_COLLECTOR_PORT');
  const prometheusPort = optionalPort('FABSCOPE_PROMETHEUS_PORT');
  // Alerts go to the demo's own Alertmanager when asked, and/or a site's.
  const webhookUrl = optionalUrl('FABSCOPE_ALERT_WEBHOOK_URL');
  const alertmanagerUrl = optionalUrl('FABSCOPE_ALERTMANAGER_URL');
  const alertmanagerPort = optionalPort('FABSCOPE_ALERTMANAGER_PORT');
  const ownAlertmanager = values.alertmanager || webhookUrl !== undefined;
  if ((ownAlertmanager || alertmanagerUrl !== undefined) && !values.prometheus)
    throw new ConfigError(
      'alerts go through Prometheus: --alertmanager, FABSCOPE_ALERT_WEBHOOK_URL and FABSCOPE_ALERTMANAGER_URL go with --prometheus',
    );
  const running = await startDemo({
    config,
    prometheus: values.prometheus,
    ...(collectorPort === undefined ? {} : { collectorPort }),
    ...(prometheusPort === undefined ? {} : { prometheusPort }),
    ...(ownAlertmanager
      ? {
          alertmanager: { webhookUrl, ...(alertmanagerPort === undefined ? {} : { port: alertmanagerPort }) },
        }
      : {}),
    alertmanagerUrl,
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
      ...(running.alertmanagerUrl
        ? [
            `  alertmanager ${running.alertmanagerUrl} → ${webhookUrl ?? 'the receiver in deploy/alertmanager/alertmanager.yml'}`,
          ]
        : []),
      ...(alertmanagerUrl ? [`  alerts also to ${alertmanagerUrl}`] : []),
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  stopOnSignal(() => running.stop());
}

async function ibsimDemo(config: ApiConfig, routing: string | undefined, prometheus: boolean): Promise<void> {
  if (prometheus) throw new ConfigError('--fabric ibsim runs with the embedded store (no --prometheus yet)');
  const engine = (routing ?? 'ftree') as SmRoutingEngine;
  if (!SM_ROUTING_ENGINES.includes(engine)) {
    throw new ConfigError(
      `--routing must be one of ${SM_ROUTING_ENGINES.join(', ')} (OpenSM's engines), got "${routing}"`,
    );
  }
  const running = await startIbsimDemo({ config, routing: engine });
  const shown = running.apiUrl.replace('0.0.0.0', '127.0.0.1');
  process.stdout.write(
    [
      `fabscope demo: fabric ${running.fabricName} on a simulated InfiniBand subnet (ibsim + OpenSM ${engine}), store ${running.api.store.kind}`,
      `  dashboard   ${shown}/`,
      `  API         ${shown}/api/v1/ (OpenAPI: ${shown}/api/v1/openapi.json)`,
      `  collector   ${running.collectorUrl}`,
      `  subnet      IBSIM_SOCKNAME=${running.lab.sockName} LD_PRELOAD=${running.lab.env.LD_PRELOAD} (run ibnetdiscover, perfquery… with these)`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  stopOnSignal(() => running.stop());
}
