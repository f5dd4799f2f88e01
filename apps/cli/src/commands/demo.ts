import { parseArgs } from 'node:util';
import type { ApiConfig } from '@fabscope/api';
import { ConfigError, configFromEnv } from '@fabscope/api/config';
import { SM_ROUTING_ENGINES, type SmRoutingEngine } from '@fabscope/lab';
import { startDemo } from '../demo/demo.ts';
import { startIbsimDemo } from '../demo/ibsim.ts';
import { startRoceDemo } from '../demo/roce.ts';
import { stopOnSignal } from './shared.ts';

/** An environment setting, undefined when unset or empty, refused when `check` finds no value in it. */
function fromEnv<T>(name: string, what: string, check: (value: string) => T | undefined): T | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const checked = check(value);
  if (checked === undefined) throw new ConfigError(`${name} must be ${what}, got "${value}"`);
  return checked;
}

const optionalPort = (name: string) =>
  fromEnv(name, 'a port number', (value) => {
    const n = Number(value);
    return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : undefined;
  });

const optionalUrl = (name: string) =>
  fromEnv(name, 'an http(s) URL', (value) =>
    URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) ? value : undefined,
  );

/** What every demo prints: where its pieces answer; Ctrl-C then stops them. */
function announce(title: string, running: { apiUrl: string; collectorUrl: string }, more: string[]): void {
  const shown = running.apiUrl.replace('0.0.0.0', '127.0.0.1');
  const lines = [
    title,
    `  dashboard   ${shown}/`,
    `  API         ${shown}/api/v1/ (OpenAPI: ${shown}/api/v1/openapi.json)`,
    `  collector   ${running.collectorUrl}`,
    ...more,
    'Ctrl-C stops everything.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
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
  if (values.fabric === 'roce') {
    await roceDemo(config, values.prometheus);
    return;
  }
  if (values.fabric !== 'emulator') {
    throw new ConfigError(`--fabric must be emulator, ibsim or roce, got "${values.fabric}"`);
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
    collectorPort,
    prometheusPort,
    alertmanager: ownAlertmanager ? { webhookUrl, port: alertmanagerPort } : undefined,
    alertmanagerUrl,
  });
  announce(`fabscope demo: fabric ${running.fabricName}, store ${running.api.store.kind}`, running, [
    `  emulator    ${running.emulatorUrl}`,
    ...(running.prometheusUrl ? [`  prometheus  ${running.prometheusUrl}`] : []),
    ...(running.alertmanagerUrl
      ? [
          `  alertmanager ${running.alertmanagerUrl} → ${webhookUrl ?? 'the receiver in deploy/alertmanager/alertmanager.yml'}`,
        ]
      : []),
    ...(alertmanagerUrl ? [`  alerts also to ${alertmanagerUrl}`] : []),
  ]);
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
  announce(
    `fabscope demo: fabric ${running.fabricName} on a simulated InfiniBand subnet (ibsim + OpenSM ${engine}), store ${running.api.store.kind}`,
    running,
    [
      `  subnet      IBSIM_SOCKNAME=${running.lab.sockName} LD_PRELOAD=${running.lab.env.LD_PRELOAD} (run ibnetdiscover, perfquery… with these)`,
    ],
  );
  stopOnSignal(() => running.stop());
}

async function roceDemo(config: ApiConfig, prometheus: boolean): Promise<void> {
  if (prometheus) throw new ConfigError('--fabric roce runs with the embedded store (no --prometheus yet)');
  const collectorPort = optionalPort('FABSCOPE_COLLECTOR_PORT');
  const running = await startRoceDemo({ config, ...(collectorPort === undefined ? {} : { collectorPort }) });
  announce(
    `fabscope demo: fabric ${running.fabricName} as simulated Ethernet switches (snmpsim), discovered by LLDP, read by SNMP`,
    running,
    [
      `  emulator    ${running.emulatorUrl}`,
      `  switches    ${running.snmpAddress}, community = switch name (snmpbulkwalk -v2c -c leaf1 ${running.snmpAddress} IF-MIB::ifXTable)`,
    ],
  );
  stopOnSignal(() => running.stop());
}
