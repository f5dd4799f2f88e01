import { type IbPortLine, parsePortsReportLines } from '@fabscope/topology';
import { errorCountersFrom } from './error-counters.ts';
import { type PerfqueryPort, parsePerfquery } from './perfquery.ts';
import type { FabricSnapshot, FabricSource, PortErrorCounters, PortSample } from './port-sample.ts';
import { queryTarget, trafficCounters } from './port-sample.ts';
import { mapBounded, runTool } from './run-tool.ts';

export interface InfinibandSourceOptions {
  fabric?: string;
  ibnetdiscover?: string;
  perfquery?: string;
  /** Per-command timeout. */
  timeoutMs?: number;
  /** ibnetdiscover sweeps the whole fabric: it gets its own, longer timeout. */
  discoverTimeoutMs?: number;
  /** perfquery processes at once. */
  concurrency?: number;
}

const NODE_TYPE = { CA: 'host', SW: 'switch', RT: 'router' } as const;

/** `ibnetdiscover -p` arguments; fixed. */
export const IBNETDISCOVER_ARGS = ['-p'] as const;

/**
 * `perfquery` arguments for one switch: 64-bit PortCountersExtended (`-x`), one block per port
 * (`-l`), the switch by GUID and its cabled ports. Never `-r`/`-R`: other tools rely on the counters.
 */
export function perfqueryArgs(guid: string, ports: readonly number[]): string[] {
  return ['-x', '-l', '-G', guid, ports.join(',')];
}

/**
 * An InfiniBand fabric read with infiniband-diags: `ibnetdiscover -p` finds the switches and what
 * each port is cabled to, then `perfquery -x` reads every switch's cabled ports. A switch that
 * fails or times out is reported per target and its ports are absent; the others still count.
 */
export function infinibandSource(options: InfinibandSourceOptions = {}): FabricSource {
  const fabric = options.fabric ?? 'infiniband';
  const ibnetdiscover = options.ibnetdiscover ?? 'ibnetdiscover';
  const perfquery = options.perfquery ?? 'perfquery';
  const timeoutMs = options.timeoutMs ?? 5000;
  const discoverTimeoutMs = options.discoverTimeoutMs ?? 20_000;
  const concurrency = options.concurrency ?? 4;
  return {
    name: `infiniband:${fabric}`,
    async read(signal): Promise<FabricSnapshot> {
      const topology = parsePortsReportLines(
        await runTool(ibnetdiscover, IBNETDISCOVER_ARGS, { timeoutMs: discoverTimeoutMs, signal }),
      );
      const switches = new Map<string, Map<number, IbPortLine>>();
      for (const line of topology) {
        if (line.local.type !== 'SW' || !line.remote) continue;
        const ports = switches.get(line.local.guid) ?? new Map<number, IbPortLine>();
        switches.set(line.local.guid, ports);
        ports.set(line.local.port, line);
      }
      const results = await mapBounded([...switches], concurrency, ([guid, lines]) =>
        queryTarget(
          guid,
          async () => {
            const portNumbers = [...lines.keys()].sort((a, b) => a - b);
            const text = await runTool(perfquery, perfqueryArgs(guid, portNumbers), { timeoutMs, signal });
            const samples: PortSample[] = [];
            for (const counters of parsePerfquery(text)) {
              const line = lines.get(counters.port);
              if (!line?.remote || counters.transmitBytes === null || counters.receiveBytes === null)
                continue;
              samples.push({
                nodeGuid: guid,
                nodeName: line.local.name,
                nodeType: NODE_TYPE[line.local.type],
                portNumber: counters.port,
                lid: line.local.lid,
                rateBytesPerSecond: line.rateBytesPerSecond ?? Number.NaN,
                linkUp: true,
                remote: {
                  nodeGuid: line.remote.guid,
                  nodeName: line.remote.name,
                  portNumber: line.remote.port,
                  nodeType: NODE_TYPE[line.remote.type],
                },
                ...trafficCounters(counters),
                errors: perfqueryErrors(counters),
              });
            }
            return samples;
          },
          [] as PortSample[],
        ),
      );
      return {
        fabric,
        fabricType: 'infiniband',
        ports: results.flatMap((r) => r.value),
        targets: results.map((r) => r.result),
      };
    },
  };
}

/**
 * perfquery's error counters by their PortCounters names. A basic (32/16/8-bit) counter stuck at
 * its maximum has saturated: what it counts since is unknown, so it is left out, not frozen.
 */
export function perfqueryErrors(counters: PerfqueryPort): PortErrorCounters {
  const saturated = new Set(counters.saturated);
  return errorCountersFrom(
    (spec) => (spec.perfquery ? [spec.perfquery] : undefined),
    (name) => {
      const v = counters.counters[name];
      return v === undefined || saturated.has(name) ? undefined : Number(v);
    },
  );
}
