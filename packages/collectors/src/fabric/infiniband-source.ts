import { type IbPortLine, parseIbnetdiscoverPorts } from './ibnetdiscover.ts';
import { parsePerfquery } from './perfquery.ts';
import type {
  FabricSnapshot,
  FabricSource,
  PortErrorCounters,
  PortSample,
  TargetResult,
} from './port-sample.ts';
import { mapBounded, runTool, ToolTimeoutError } from './run-tool.ts';

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
      const topology = parseIbnetdiscoverPorts(
        await runTool(ibnetdiscover, IBNETDISCOVER_ARGS, { timeoutMs: discoverTimeoutMs, signal }),
      );
      const switches = new Map<string, Map<number, IbPortLine>>();
      for (const line of topology) {
        if (line.local.type !== 'SW' || !line.remote) continue;
        const ports = switches.get(line.local.guid) ?? new Map<number, IbPortLine>();
        switches.set(line.local.guid, ports);
        ports.set(line.local.port, line);
      }
      const results = await mapBounded([...switches], concurrency, async ([guid, lines]) => {
        const started = performance.now();
        const portNumbers = [...lines.keys()].sort((a, b) => a - b);
        try {
          const text = await runTool(perfquery, perfqueryArgs(guid, portNumbers), { timeoutMs, signal });
          const samples: PortSample[] = [];
          for (const counters of parsePerfquery(text)) {
            const line = lines.get(counters.port);
            if (!line?.remote || counters.transmitBytes === null || counters.receiveBytes === null) continue;
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
              transmitBytes: Number(counters.transmitBytes),
              receiveBytes: Number(counters.receiveBytes),
              transmitPackets: Number(counters.transmitPackets ?? Number.NaN),
              receivePackets: Number(counters.receivePackets ?? Number.NaN),
              transmitWaitTicks: Number(counters.transmitWait ?? Number.NaN),
              errors: perfqueryErrors(counters.counters),
            });
          }
          const result: TargetResult = {
            target: guid,
            durationSeconds: (performance.now() - started) / 1000,
            outcome: 'ok',
          };
          return { samples, result };
        } catch (error) {
          const outcome = error instanceof ToolTimeoutError ? 'timeout' : 'error';
          const result: TargetResult = {
            target: guid,
            durationSeconds: (performance.now() - started) / 1000,
            outcome,
          };
          return { samples: [] as PortSample[], result };
        }
      });
      return {
        fabric,
        fabricType: 'infiniband',
        ports: results.flatMap((r) => r.samples),
        targets: results.map((r) => r.result),
      };
    },
  };
}

const count = (value: bigint | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

/** perfquery's error counters by their PortCounters names. */
function perfqueryErrors(c: Record<string, bigint>): PortErrorCounters {
  return {
    symbolErrors: count(c.SymbolErrorCounter),
    linkErrorRecovery: count(c.LinkErrorRecoveryCounter),
    linkDowned: count(c.LinkDownedCounter),
    receiveErrors: count(c.PortRcvErrors),
    transmitDiscards: count(c.PortXmitDiscards),
  };
}
