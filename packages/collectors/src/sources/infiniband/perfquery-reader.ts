import { type IbLocalPort, ibPortArgs } from '@fabscope/contracts/names';
import type { PortErrorCounters, TargetResult } from '../../fabric/port-sample.ts';
import { queryTarget } from '../../fabric/port-sample.ts';
import { mapBounded, type RunToolOptions, runTool } from '../run-tool.ts';
import type { IbPort } from './ib-discovery.ts';
import type { IbPortReading } from './ib-port-reader.ts';
import { errorsByPerfqueryName, PORT_ACTIVE } from './ib-port-sample.ts';
import { type PerfqueryPort, parsePerfquery } from './perfquery.ts';

/** One read of the discovered ports, whichever reader made it. */
export interface PortReads {
  readings: IbPortReading[];
  readAtMs: number;
  targets: TargetResult[];
  mads: { sent: number; retries: number; failedPorts: number } | undefined;
}

/** The perfquery reader's command, its bounds and the local port of the subnet it reads (none: the default). */
type PerfqueryTools = { perfquery: string; concurrency: number; localPort?: IbLocalPort | undefined } & Pick<
  RunToolOptions,
  'timeoutMs' | 'env' | 'cwd'
>;

/**
 * `perfquery` arguments for one node's ports by LID, through the local port of its subnet (`-C ca -P port`; none:
 * the default port); never `-r`/`-R`: other tools rely on the counters.
 */
export function perfqueryArgs(
  lid: number,
  ports: readonly number[],
  extended: boolean,
  localPort?: IbLocalPort,
): string[] {
  return [...ibPortArgs(localPort), ...(extended ? ['-x'] : []), '-l', String(lid), ports.join(',')];
}

/** A reading with nothing read. */
export const EMPTY_READING: IbPortReading = {
  portState: null,
  physicalState: null,
  linkWidthActive: null,
  linkSpeedActive: null,
  transmitBytes: null,
  receiveBytes: null,
  transmitPackets: null,
  receivePackets: null,
  transmitWaitTicks: null,
  errors: null,
  countersExtended: false,
  samplesTick: null,
  samplesCounterWidth: null,
  cleared: [],
  countersReadAtMs: null,
};

/** Reads every port with perfquery (PortCountersExtended and PortCounters), one node per process. */
export async function readPerfquery(
  ports: readonly IbPort[],
  signal: AbortSignal,
  tools: PerfqueryTools,
): Promise<PortReads> {
  const { perfquery, timeoutMs, concurrency, env, cwd, localPort } = tools;
  const byNode = new Map<string, { lid: number; indexes: number[] }>();
  ports.forEach((p, i) => {
    // A CA's ports each have their own LID; a switch's share its port 0's.
    const key = p.nodeType === 'switch' ? p.nodeGuid : `${p.nodeGuid}/${p.lid}`;
    const entry = byNode.get(key) ?? { lid: p.lid, indexes: [] };
    entry.indexes.push(i);
    byNode.set(key, entry);
  });
  const readings: IbPortReading[] = ports.map((p) => ({
    ...EMPTY_READING,
    // perfquery reads no PortInfo: the state is what this sweep's discovery saw.
    portState: p.cabledNow ? PORT_ACTIVE : 1,
  }));
  const started = Date.now();
  const results = await mapBounded([...byNode], concurrency, ([key, { lid, indexes }]) =>
    queryTarget(
      key.split('/')[0] as string,
      async () => {
        const numbers = indexes.map((i) => (ports[i] as IbPort).port);
        // Each run read its counters between its start and its end: stamped with the middle.
        // Both runs are waited for even when one fails: a run left going would outlive its turn in the bound.
        const runs = await Promise.allSettled(
          [true, false].map(async (x) => {
            const runStarted = Date.now();
            const text = await runTool(perfquery, perfqueryArgs(lid, numbers, x, localPort), {
              timeoutMs,
              signal,
              env,
              cwd,
            });
            return { blocks: parsePerfquery(text) ?? [], atMs: (runStarted + Date.now()) / 2 };
          }),
        );
        const failed = runs.find((run) => run.status === 'rejected');
        if (failed) throw failed.reason;
        const [extended, basic] = runs.map((run) => (run.status === 'fulfilled' ? run.value : undefined));
        for (const [block, atMs] of [extended, basic].flatMap((run) =>
          (run?.blocks ?? []).map((b) => [b, run?.atMs as number] as const),
        )) {
          const i = indexes.find((k) => (ports[k] as IbPort).port === block.port);
          if (i === undefined) continue;
          const r = readings[i] as IbPortReading;
          // The data counters' (extended) run stamps the port; the basic run's only when that one gave none.
          if (block.extended || r.countersReadAtMs === null) r.countersReadAtMs = atMs;
          if (block.extended) {
            r.transmitBytes = block.transmitBytes;
            r.receiveBytes = block.receiveBytes;
            r.transmitPackets = block.transmitPackets;
            r.receivePackets = block.receivePackets;
          } else {
            r.transmitWaitTicks = block.transmitWait;
            // Saturated counters stay: portSample leaves them out as it does the MAD reader's.
            r.errors = Object.fromEntries(
              Object.entries(block.counters).map(([name, v]) => [name, Number(v)]),
            ) as IbPortReading['errors'];
          }
        }
      },
      undefined,
    ),
  );
  return {
    readings,
    readAtMs: (started + Date.now()) / 2,
    targets: results.map((r) => r.result),
    mads: undefined,
  };
}

/** A perfquery block's error counters; those its parser found saturated are left out. */
export function perfqueryErrors(block: PerfqueryPort): PortErrorCounters {
  const saturated = new Set(block.saturated);
  return errorsByPerfqueryName((name) => {
    const v = block.counters[name];
    return v === undefined || saturated.has(name) ? undefined : Number(v);
  });
}
