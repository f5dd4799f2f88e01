import { parseArgs } from 'node:util';
import { ConfigError, ibPortsFrom } from '@fabscope/api/config';
import {
  createFabricRegistry,
  createHostCollector,
  ethtoolFromFiles,
  FabricSourceSettingsError,
  openFabricSource,
  parseShard,
  type ScrapeRequest,
  type Shard,
  startMetricsServer,
} from '@fabscope/collectors';
import { ibPortReaderCommand } from '../ib-port-reader-command.ts';
import { COLLECT_USAGE } from '../usage.js';
import { parseListen } from './shared.ts';

export interface Io {
  stdout: (text: string | Uint8Array) => void;
}

function regex(name: string, value: string | undefined): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value);
  } catch {
    throw new ConfigError(`${name} must be a regular expression, got "${value}"`);
  }
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
  return n;
}

async function serveOrPrint(
  scrape: (request: ScrapeRequest) => Promise<string | Iterable<string | Uint8Array>>,
  listen: string,
  once: boolean,
  io: Io,
  /** What the server answers, when it may take another form than the text (the fabric agent's Arrow). */
  serve: Parameters<typeof startMetricsServer>[0] = scrape,
): Promise<(() => Promise<void>) | undefined> {
  if (once) {
    const body = await scrape({});
    if (typeof body === 'string') io.stdout(body);
    else for (const chunk of body) io.stdout(chunk);
    return undefined;
  }
  const server = await startMetricsServer(serve, parseListen(listen));
  io.stdout(`fabscope collect: serving ${server.url}\n`);
  return () => server.close();
}

/** Options of `fabscope collect fabric` (docker-compose.yml's collector is checked against them). */
export const COLLECT_FABRIC_OPTIONS = {
  source: { type: 'string' },
  url: { type: 'string' },
  fabric: { type: 'string' },
  targets: { type: 'string' },
  ibnetdiscover: { type: 'string', default: 'ibnetdiscover' },
  perfquery: { type: 'string', default: 'perfquery' },
  reader: { type: 'string', default: 'mad' },
  opapmaquery: { type: 'string', default: 'opapmaquery' },
  'timeout-ms': { type: 'string' },
  concurrency: { type: 'string' },
  listen: { type: 'string', default: '127.0.0.1:9466' },
  once: { type: 'boolean', default: false },
  shard: { type: 'string' },
  'raw-counters': { type: 'string', default: 'auto' },
  'reset-counters': { type: 'boolean', default: false },
} as const;

/** `collect fabric`'s options, and the source they name opened: the one way the CLI chooses a fabric source. */
export async function openSource(args: string[]) {
  const { values } = parseArgs({ args, options: COLLECT_FABRIC_OPTIONS });
  const timeoutMs = positiveInt('--timeout-ms', values['timeout-ms'], 5000);
  const concurrency = positiveInt('--concurrency', values.concurrency, 4);
  try {
    const settings = {
      ...values,
      timeoutMs,
      concurrency,
      ibPortReaderCommand: ibPortReaderCommand(),
      // The local ports whose subnets `--source infiniband` reads, as `serve` reads them.
      ibPorts: values.source === 'infiniband' ? ibPortsFrom(process.env.FABSCOPE_IB_PORTS) : undefined,
    };
    return { values, opened: await openFabricSource(values.source, settings) };
  } catch (error) {
    if (error instanceof FabricSourceSettingsError) throw new ConfigError(error.message);
    throw error;
  }
}

/** `fabscope collect host|fabric …`; resolves with a stop function when it keeps serving. */
export async function collect(args: string[], io: Io): Promise<(() => Promise<void>) | undefined> {
  const [kind, ...rest] = args;
  if (kind === 'host') {
    const { values } = parseArgs({
      args: rest,
      options: {
        sysfs: { type: 'string', default: '/sys' },
        procfs: { type: 'string', default: '/proc' },
        include: { type: 'string' },
        exclude: { type: 'string' },
        listen: { type: 'string', default: '127.0.0.1:9465' },
        once: { type: 'boolean', default: false },
        ethtool: { type: 'string' },
      },
    });
    const host = createHostCollector({
      sysfs: values.sysfs,
      ...(values.ethtool === undefined ? {} : { ethtool: ethtoolFromFiles(values.ethtool) }),
      procfs: values.procfs,
      include: regex('--include', values.include),
      exclude: regex('--exclude', values.exclude),
    });
    return serveOrPrint(host.scrape, values.listen, values.once, io);
  }
  if (kind === 'fabric') {
    const { values, opened } = await openSource(rest);
    let shard: Shard | undefined;
    try {
      shard = values.shard === undefined ? undefined : parseShard(values.shard);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    const raw = values['raw-counters'];
    if (raw !== 'auto' && raw !== 'on' && raw !== 'off') {
      throw new ConfigError(`--raw-counters must be on, off or auto, got "${raw}"`);
    }
    const fabric = createFabricRegistry({
      source: opened.source,
      timeoutMs: opened.readTimeoutMs,
      shard,
      rawCounters: raw === 'auto' ? 'auto' : raw === 'on',
    });
    const stop = await serveOrPrint(fabric.scrapeChunks, values.listen, values.once, io, fabric.answer);
    if (!stop) opened.close?.();
    return (
      stop &&
      (async () => {
        await stop();
        opened.close?.();
      })
    );
  }
  throw new ConfigError(`collect needs "host" or "fabric"\n${COLLECT_USAGE}`);
}
