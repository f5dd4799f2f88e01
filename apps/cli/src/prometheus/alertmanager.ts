import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CHECKOUT_ROOT } from '../checkout.ts';
import { findTool, type LoopbackServer, startLoopbackServer } from './server-process.ts';

/** The one Alertmanager configuration, shared with docker-compose.yml. */
export const ALERTMANAGER_CONFIG = join(CHECKOUT_ROOT, 'deploy/alertmanager/alertmanager.yml');

/** How soon Alertmanager notifies: Alertmanager's own durations ("10s", "1m"). */
export interface AlertmanagerTimings {
  /** Wait before a new group's first notification (shipped: 10s). */
  groupWait?: string;
  /** Wait before notifying a group's changes, resolutions included (shipped: 1m). */
  groupInterval?: string;
  /** An alert with no end time that is not sent again is resolved after this long (default 5m). */
  resolveTimeout?: string;
}

export interface AlertmanagerOptions extends AlertmanagerTimings {
  /** The site's webhook receiver; default the shipped example's URL. */
  webhookUrl?: string | undefined;
  port?: number;
  /** Default: `prometheus-alertmanager` (Debian's name), else `alertmanager`. */
  binary?: string;
  readyTimeoutMs?: number;
}

export type AlertmanagerServer = LoopbackServer;

interface AlertmanagerYaml {
  global?: Record<string, unknown>;
  route?: Record<string, unknown> & { receiver?: string };
  receivers?: { name: string; webhook_configs?: { url: string; send_resolved?: boolean }[] }[];
}

/** deploy/alertmanager/alertmanager.yml with the webhook URL and route timings given. */
export function alertmanagerConfig(options: AlertmanagerOptions = {}, source = ALERTMANAGER_CONFIG): string {
  const config = parse(readFileSync(source, 'utf8')) as AlertmanagerYaml;
  if (!config.route) throw new Error(`${source} has no route`);
  const hooks = (config.receivers ?? []).flatMap((r) => r.webhook_configs ?? []);
  if (hooks.length === 0) throw new Error(`${source} has no webhook receiver`);
  if (options.webhookUrl !== undefined) {
    const url = new URL(options.webhookUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`the webhook URL must be http(s), got "${options.webhookUrl}"`);
    for (const hook of hooks) hook.url = url.href;
  }
  const route = config.route;
  if (options.groupWait) route.group_wait = options.groupWait;
  if (options.groupInterval) route.group_interval = options.groupInterval;
  if (options.resolveTimeout) config.global = { ...config.global, resolve_timeout: options.resolveTimeout };
  return stringify(config);
}

/** Starts a real Alertmanager on a free loopback port with its own storage; stop() removes it. */
export async function startAlertmanager(options: AlertmanagerOptions = {}): Promise<AlertmanagerServer> {
  return startLoopbackServer({
    name: 'alertmanager',
    // Debian's `prometheus-alertmanager`, or upstream's `alertmanager`.
    binary: await findTool(
      options.binary ? [options.binary] : ['prometheus-alertmanager', 'alertmanager'],
      'prometheus-alertmanager',
    ),
    config: () => alertmanagerConfig(options),
    args: (dir, configFile, port) => [
      `--config.file=${configFile}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // A single instance: no gossip listener on 0.0.0.0:9094.
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    port: options.port,
    readyTimeoutMs: options.readyTimeoutMs,
  });
}
