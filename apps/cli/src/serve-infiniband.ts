import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiConfig, discoverSubnets, type IbSubnet, startApi, subnetOfPort } from '@fabscope/api';
import {
  createFabricRegistry,
  type InfinibandSourceOptions,
  infinibandSource,
  localIbPorts,
  runTool,
  startMetricsServer,
} from '@fabscope/collectors';
import { parsePortsReport } from '@fabscope/topology';
import { WEB_ROOT } from './demo/demo.ts';
import { ibPortReaderCommand } from './ib-port-reader-command.ts';
import { startPieces } from './pieces.ts';

/** The InfiniBand source `serve` reads the local subnet with, from its settings; the tools run in `cwd`. */
export function serveSourceOptions(config: ApiConfig, cwd: string): InfinibandSourceOptions {
  return {
    fabric: 'infiniband',
    cwd,
    // On the topology's schedule: a cable plugged into free ports is read from the discovery
    // that draws it (a port that changes state is rediscovered at once anyway).
    ...(config.topologyLive ? { rediscoverMs: config.topologyLive.discoverIntervalMs } : {}),
    resetCounters: config.ibResetCounters,
    madReader: { command: ibPortReaderCommand() },
  };
}

export interface ServeInfinibandOptions {
  collectorPort?: number;
  /** The subnets to watch, each under its own tool environment (the lab harness's); default from the config. */
  subnets?: readonly IbSubnet[];
  /** Where the local adapters are listed (tests give a tree of their own). */
  sysfsRoot?: string;
}

/**
 * The subnets `serve` watches: the harness's, else FABSCOPE_IB_PORTS', else every local port whose link is up
 * when there are several; undefined: one subnet through the tools' default port, as before several were read.
 */
export function servedSubnets(
  config: Pick<ApiConfig, 'ibPorts'>,
  options: Pick<ServeInfinibandOptions, 'subnets' | 'sysfsRoot'> = {},
): readonly IbSubnet[] | undefined {
  if (options.subnets) return options.subnets;
  if (config.ibPorts) return config.ibPorts.map(subnetOfPort);
  const up = localIbPorts(options.sysfsRoot);
  return up.length > 1 ? up.map(subnetOfPort) : undefined;
}

/** `FABSCOPE_FABRIC=infiniband fabscope serve`: the local subnet as `ibnetdiscover -p` finds it, routed by
 * the SM's tables (`dump_fts` unless FABSCOPE_LFTS), read by MADs from an in-process collector. */
export async function serveInfiniband(config: ApiConfig, options: ServeInfinibandOptions = {}) {
  const subnets = servedSubnets(config, options);
  if (subnets) return serveSubnets(config, subnets, options);
  // The tools' working directory: a simulated subnet's preload writes a sysfs of its own into it.
  const cwd = mkdtempSync(join(tmpdir(), 'fabscope-ib-'));
  return startPieces(async (stops, stop) => {
    stops.push(() => rmSync(cwd, { recursive: true, force: true }));
    const fabric = parsePortsReport(
      await runTool('ibnetdiscover', ['-p'], { timeoutMs: 60_000, cwd }),
      'infiniband',
      { nodeNames: config.nodeNames },
    );
    const source = infinibandSource(serveSourceOptions(config, cwd));
    stops.push(() => source.close());
    const { answer } = createFabricRegistry({ source });
    const collector = await startMetricsServer(answer, {
      host: '127.0.0.1',
      port: options.collectorPort ?? 0,
    });
    stops.push(() => collector.close());
    const api = await startApi(
      {
        ...config,
        // The in-process collector, unless a TSDB reads the live view (its own scrape of it).
        collectorUrls:
          config.prometheusUrl && config.liveSource !== 'collectors' ? config.collectorUrls : [collector.url],
        // Ask the subnet manager: its tables, never ones computed here.
        lfts: config.lfts ?? { kind: 'dump_fts', intervalMs: 30_000 },
      },
      fabric,
      { webRoot: WEB_ROOT, tools: { cwd } },
    );
    stops.push(() => api.close());
    return { api, fabric, collector, collectors: [collector], subnets: [] as readonly IbSubnet[], stop };
  });
}

/**
 * Several subnets, one server: each discovered, swept by a collector of its own and routed by its own SM's
 * tables, all drawn as one fabric (a network each). The first collector's port is `collectorPort`.
 */
async function serveSubnets(
  config: ApiConfig,
  subnets: readonly IbSubnet[],
  options: ServeInfinibandOptions,
) {
  const cwd = mkdtempSync(join(tmpdir(), 'fabscope-ib-'));
  return startPieces(async (stops, stop) => {
    stops.push(() => rmSync(cwd, { recursive: true, force: true }));
    const fabric = await discoverSubnets('infiniband', subnets, { nodeNames: config.nodeNames, cwd })();
    const collectors = [];
    for (const [i, subnet] of subnets.entries()) {
      const source = infinibandSource({
        ...serveSourceOptions(config, subnet.cwd ?? cwd),
        fabric: subnet.name,
        localPort: subnet.localPort,
        env: subnet.env,
      });
      stops.push(() => source.close());
      const { answer } = createFabricRegistry({ source });
      const port = i === 0 ? (options.collectorPort ?? 0) : 0;
      const collector = await startMetricsServer(answer, { host: '127.0.0.1', port });
      stops.push(() => collector.close());
      collectors.push(collector);
    }
    // Each subnet's own dump where the harness has one (the lab's OpenSM), else its switches asked by dump_fts.
    const dumps = subnets.every((s) => s.lftsPath !== undefined);
    const api = await startApi(
      {
        ...config,
        collectorUrls:
          config.prometheusUrl && config.liveSource !== 'collectors'
            ? config.collectorUrls
            : collectors.map((c) => c.url),
        lfts:
          config.lfts ??
          (dumps
            ? { kind: 'file', path: subnets[0]?.lftsPath as string, intervalMs: 1000 }
            : { kind: 'dump_fts', intervalMs: 30_000 }),
      },
      fabric,
      { webRoot: WEB_ROOT, tools: { cwd, subnets } },
    );
    stops.push(() => api.close());
    return {
      api,
      fabric,
      collector: collectors[0] as (typeof collectors)[number],
      collectors,
      subnets,
      stop,
    };
  });
}
