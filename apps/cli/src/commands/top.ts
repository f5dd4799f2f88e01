import { parseArgs } from 'node:util';
import { ConfigError } from '@fabscope/api/config';
import { TopClient } from '../top/client.ts';
import { TopClientError } from '../top/errors.ts';
import { runLive } from '../top/live.ts';
import { renderScreen, tableRows } from '../top/render.ts';
import { plainText, screenSize } from '../top/screen.ts';
import { initialViewState, type ViewState } from '../top/state.ts';
import { TOP_USAGE } from '../usage.js';

const DEFAULT_URL = 'http://127.0.0.1:8080';

function checkedUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return value.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`--url must be an http:// or https:// address, got "${value}"`);
  }
}

function parseTopArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      url: { type: 'string', default: DEFAULT_URL },
      once: { type: 'boolean', default: false },
      interval: { type: 'string', default: '2' },
      token: { type: 'string' },
      unit: { type: 'string', default: 'bytes' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
}

/** `fabscope top`: the interactive view, or one screen with --once. */
export async function topCommand(args: string[]): Promise<void> {
  let values: ReturnType<typeof parseTopArgs>;
  try {
    values = parseTopArgs(args);
  } catch (error) {
    // parseArgs' own errors (unknown option, missing value) are usage errors, not crashes.
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${message}\nusage: fabscope ${TOP_USAGE.split('\n')[0]}`);
  }
  if (values.help) {
    process.stdout.write(`usage: fabscope ${TOP_USAGE}\n`);
    return;
  }
  const url = checkedUrl(values.url);
  const intervalSeconds = Number(values.interval);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds < 0.2 || intervalSeconds > 3600) {
    throw new ConfigError(`--interval must be seconds between 0.2 and 3600, got "${values.interval}"`);
  }
  if (values.unit !== 'bytes' && values.unit !== 'bits')
    throw new ConfigError(`--unit must be bytes (GB/s) or bits (Gb/s), got "${values.unit}"`);
  const initial: ViewState = { ...initialViewState, rateUnit: values.unit };
  const client = new TopClient({ url, token: values.token ?? process.env.FABSCOPE_API_TOKEN });
  if (!values.once) {
    await runLive({
      client,
      url,
      intervalMs: intervalSeconds * 1000,
      stdin: process.stdin,
      stdout: process.stdout,
      env: process.env,
      initial,
    });
    return;
  }
  const size = screenSize(process.stdout, process.env);
  // The server's answers are what --once is for: no answer is an error, not a screen of dashes.
  try {
    const features = await client.features();
    const snapshot = await client.snapshot(initial, tableRows(size, features), features);
    const fabric = await client.fabric().catch(() => null);
    const nowMs = Date.now();
    const input = {
      url,
      state: initial,
      fabric,
      features,
      snapshot,
      error: null,
      snapshotAtMs: nowMs,
      nowMs,
      once: true,
    };
    process.stdout.write(plainText(renderScreen(input, size)));
  } catch (error) {
    if (!(error instanceof TopClientError)) throw error;
    process.stderr.write(`fabscope top: ${error.message}\n`);
    process.exitCode = 1;
  }
}
