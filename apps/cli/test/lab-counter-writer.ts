import type { Lab } from '@fabscope/lab';

/** What one link direction `node/port->node/port` carries, as fractions of its data rate and errors a second. */
export interface DirectionLoad {
  utilization: number;
  /** Share 0..1 of the time its sender waits for credit (PortXmitWait). */
  waitFraction?: number;
  /** Symbol errors a second its receiver counts. */
  symbolErrorsPerSecond?: number;
}

export interface CounterWriter {
  stop(): Promise<void>;
}

/** Lanes of every lab link (4x): a PortXmitWait tick is a symbol time, lanes ÷ data rate (ib-port-sample.ts). */
const LANES = 4;
/** SymbolErrorCounter's width: ibsim refuses nothing above it, it saturates. */
const SYMBOL_ERRORS_MAX = 0xffff;

const portOf = (end: string) => {
  const at = end.lastIndexOf('/');
  return { node: end.slice(0, at), port: Number(end.slice(at + 1)) };
};

/**
 * Writes each direction's counters into ibsim as a constant load since the start would have counted them —
 * PortXmitData and PortXmitWait at the sender, SymbolErrorCounter at the receiver — every `everyMs`, so the
 * server's sweeps read those rates (within a write's step of the sample interval). `capacity`: bytes/s per direction.
 */
export function startCounterWriter(
  lab: Lab,
  loads: ReadonlyMap<string, DirectionLoad>,
  capacity: ReadonlyMap<string, number>,
  everyMs = 100,
): CounterWriter {
  const startMs = Date.now();
  const plan = [...loads].map(([id, load]) => {
    const [from, to] = id.split('->') as [string, string];
    const bytesPerSecond = capacity.get(id);
    if (!bytesPerSecond) throw new Error(`startCounterWriter: the server has no data rate for ${id}`);
    return { sender: portOf(from), receiver: portOf(to), load, bytesPerSecond };
  });
  const write = () => {
    const seconds = (Date.now() - startMs) / 1000;
    const lines: string[] = [];
    for (const { sender, receiver, load, bytesPerSecond } of plan) {
      const tx = `"${sender.node}"[${sender.port}]`;
      lines.push(
        `PerformanceSet ${tx} PortCountersExtended.PortXmitData=${Math.floor((load.utilization * bytesPerSecond * seconds) / 4)}`,
      );
      if (load.waitFraction)
        lines.push(
          `PerformanceSet ${tx} PortCounters.PortXmitWait=${Math.floor((load.waitFraction * seconds * bytesPerSecond) / LANES)}`,
        );
      if (load.symbolErrorsPerSecond)
        lines.push(
          `PerformanceSet "${receiver.node}"[${receiver.port}] PortCounters.SymbolErrorCounter=${Math.min(SYMBOL_ERRORS_MAX, Math.floor(load.symbolErrorsPerSecond * seconds))}`,
        );
    }
    return lab.command(...lines);
  };
  let running: Promise<unknown> | null = null;
  let failure: unknown = null;
  const timer = setInterval(() => {
    if (running) return;
    running = write()
      .catch((error) => {
        failure ??= error;
      })
      .finally(() => {
        running = null;
      });
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (failure) throw failure;
    },
  };
}
