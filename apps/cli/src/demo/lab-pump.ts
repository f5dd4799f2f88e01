import type { Emulator, PortCounterName, PortCountersDocument } from '@fabscope/emulator';
import type { Lab } from '@fabscope/lab';

/** Emulator counter → PerformanceSet field and the width ibsim saturates it at (ibsim sim_cmd.c check_limit). */
const FIELDS: readonly (readonly [emulatorName: PortCounterName, attributeField: string, bits: number])[] = [
  ['XmitData', 'PortCountersExtended.PortXmitData', 64],
  ['RcvData', 'PortCountersExtended.PortRcvData', 64],
  ['XmitPkts', 'PortCountersExtended.PortXmitPkts', 64],
  ['RcvPkts', 'PortCountersExtended.PortRcvPkts', 64],
  ['XmitWait', 'PortCounters.PortXmitWait', 32],
  ['SymbolErrors', 'PortCounters.SymbolErrorCounter', 16],
  ['LinkErrorRecovery', 'PortCounters.LinkErrorRecoveryCounter', 8],
  ['LinkDowned', 'PortCounters.LinkDownedCounter', 8],
  ['RcvErrors', 'PortCounters.PortRcvErrors', 16],
  ['XmitDiscards', 'PortCounters.PortXmitDiscards', 16],
  ['RcvRemotePhysicalErrors', 'PortCounters.PortRcvRemotePhysicalErrors', 16],
  ['RcvSwitchRelayErrors', 'PortCounters.PortRcvSwitchRelayErrors', 16],
  ['XmitConstraintErrors', 'PortCounters.PortXmitConstraintErrors', 8],
  ['RcvConstraintErrors', 'PortCounters.PortRcvConstraintErrors', 8],
  ['LocalLinkIntegrityErrors', 'PortCounters.LocalLinkIntegrityErrors', 4],
  ['ExcessiveBufferOverruns', 'PortCounters.ExcessiveBufferOverrunErrors', 4],
  ['VL15Dropped', 'PortCounters.VL15Dropped', 16],
];

/**
 * The console commands that bring the subnet to the emulator's counters and cable states; updates `written`.
 * `cleared` holds what the collector's clears took off each counter: the subnet counts on from 0 after a clear.
 */
export function labCommands(
  doc: PortCountersDocument,
  written: Map<string, bigint>,
  linksDown: Set<string>,
  cleared: ReadonlyMap<string, bigint> = new Map(),
): string[] {
  const commands: string[] = [];
  for (const port of doc.ports) {
    const where = `"${port.nodeName}"[${port.portNumber}]`;
    const here = `${port.nodeName}/${port.portNumber}`;
    // A cable's state is written from its end that sorts first.
    if (port.remote && here < `${port.remote.nodeName}/${port.remote.portNumber}`) {
      const down = port.linkState === 'down';
      if (down && !linksDown.has(here)) {
        linksDown.add(here);
        commands.push(`Unlink ${where}`);
      } else if (!down && linksDown.has(here)) {
        linksDown.delete(here);
        commands.push(`Link ${where} "${port.remote.nodeName}"[${port.remote.portNumber}]`);
      }
    }
    const counters = port.counters as unknown as Record<string, string | undefined>;
    for (const [name, field, bits] of FIELDS) {
      const text = counters[name];
      if (text === undefined) continue;
      const max = (1n << BigInt(bits)) - 1n;
      const key = `${where} ${field}`;
      const raw = BigInt(text) - (cleared.get(key) ?? 0n);
      const value = raw > max ? max : raw < 0n ? 0n : raw;
      if (written.get(key) === value) continue;
      written.set(key, value);
      commands.push(`PerformanceSet ${where} ${field}=${value}`);
    }
  }
  return commands;
}

/**
 * Books a clear of a port's PortCounters (perfquery names): what the subnet held, the last write, is taken off the
 * emulator's counts from now on. Reads run with the pump held, so the last write is what the clear found.
 */
export function bookClears(
  written: Map<string, bigint>,
  cleared: Map<string, bigint>,
  nodeName: string,
  port: number,
  counters: readonly string[],
): void {
  for (const name of counters) {
    const key = `"${nodeName}"[${port}] PortCounters.${name}`;
    cleared.set(key, (cleared.get(key) ?? 0n) + (written.get(key) ?? 0n));
    written.set(key, 0n);
  }
}

export interface LabPump {
  /** Writes what changed, between reads; resolves with the emulator time (Unix ms) the subnet's values stand for. */
  flush(): Promise<number>;
  /**
   * Runs `read` with the pump held, one read at a time: the subnet's counters stand still between writes,
   * so everything `read` sees dates from the write just before it.
   */
  readAtFlush<T>(read: () => Promise<T>): Promise<{ value: T; atMs: number }>;
  /**
   * The collector cleared these PortCounters (perfquery names) of a port during a read: the subnet holds 0
   * there now, so the pump writes on from 0 rather than the emulator's whole count.
   */
  countersCleared(nodeName: string, port: number, counters: readonly string[]): void;
  stop(): void;
}

/** Keeps the subnet equal to the emulator, flushed before each sweep so rates are the emulator's. */
export function startLabPump(emulator: Emulator, lab: Lab, intervalMs = 100): LabPump {
  const written = new Map<string, bigint>();
  const linksDown = new Set<string>();
  const cleared = new Map<string, bigint>();
  let running: Promise<number> | null = null;
  let again = false;
  let held = 0;
  let writtenAtMs = emulator.nowMs();
  // The emulator's clock is its server's alone (ibsim.ts): advanced here too, it ran up to a tick ahead
  // of the wall clock, so the counters' stamps lay in the future and read above the data rate.
  const once = async () => {
    const doc = emulator.portCounters();
    const commands = labCommands(doc, written, linksDown, cleared);
    try {
      if (commands.length > 0) await lab.command(...commands);
    } catch (error) {
      // Some lines may not have landed: the next write sends every counter again rather than trust `written`.
      written.clear();
      throw error;
    }
    writtenAtMs = doc.timeMs;
  };
  const write = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await once();
        } while (again);
        return writtenAtMs;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => {
    if (!running && held === 0) write().catch(() => undefined);
  }, intervalMs);
  timer.unref();
  // Reads take turns, each between two writes: a read's flush while another read's sweep ran wrote newer
  // counters under that sweep, which it stamped with its own older flush, reading above the data rate.
  let reads: Promise<unknown> = Promise.resolve();
  const readTurn = async <T>(read: () => Promise<T>) => {
    held++;
    try {
      const atMs = await write();
      return { value: await read(), atMs };
    } finally {
      held--;
    }
  };
  const readAtFlush = <T>(read: () => Promise<T>) => {
    const turn = reads.then(() => readTurn(read));
    reads = turn.catch(() => undefined);
    return turn;
  };
  return {
    flush: async () => (await readAtFlush(async () => undefined)).atMs,
    readAtFlush,
    countersCleared: (nodeName, port, counters) => bookClears(written, cleared, nodeName, port, counters),
    stop: () => clearInterval(timer),
  };
}
