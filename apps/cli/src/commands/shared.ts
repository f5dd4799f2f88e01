import { ConfigError } from '@fabscope/api/config';

/** Splits `host:port` (IPv6 in brackets) for --listen options. */
export function parseListen(value: string, option = '--listen'): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port > 65535) {
    throw new ConfigError(`${option} must be host:port, got "${value}"`);
  }
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** Longest a stop may take after SIGINT/SIGTERM before the process exits anyway. */
const STOP_DEADLINE_MS = 5000;

/** Runs `stop` on Ctrl-C or SIGTERM, then exits: within STOP_DEADLINE_MS, at once on a second signal. */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
