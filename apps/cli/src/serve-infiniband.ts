import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiConfig, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  type InfinibandSourceOptions,
  infinibandSource,
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

/** `FABSCOPE_FABRIC=infiniband fabscope serve`: the local subnet as `ibnetdiscover -p` finds it, routed by
 * the SM's tables (`dump_fts` unless FABSCOPE_LFTS), read by MADs from an in-process collector. */
export async function serveInfiniband(config: ApiConfig, options: { collectorPort?: number } = {}) {
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
    return { api, fabric, collector, stop };
  });
}
