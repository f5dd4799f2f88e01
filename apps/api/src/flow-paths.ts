import type { EmulatorClient, FlowInfo } from './emulator-client.ts';

/** The index is kept fresh only while routes are asked: this long after the last question. */
const KEEP_WARM_MS = 30_000;
/** Most flows read into the index per tick (one page); beyond, each route asks for its own pair. */
export const MAX_INDEXED_FLOWS = 4096;

/**
 * The emulator's flows by their two ends, read once per sampling tick while routes are asked, so
 * `/route` never waits on the emulator; beyond one page of flows each route asks for its own pair.
 */
export class FlowPaths {
  private index: Map<string, FlowInfo[]> | null = null;
  private lastAskedMs = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly emulator: Pick<EmulatorClient, 'listFlows' | 'flowsPage'>,
    /** Calls back once per sampling tick (the Sampler's onTick). */
    sampler: { onTick(listener: () => void): () => void },
    private readonly now: () => number = Date.now,
    private readonly maxFlows = MAX_INDEXED_FLOWS,
  ) {
    this.unsubscribe = sampler.onTick(() => {
      if (this.now() - this.lastAskedMs < KEEP_WARM_MS) void this.read();
      else this.index = null;
    });
  }

  /** The flows from `from` to `to`: from the tick's index, or asked of the emulator. */
  async between(from: string, to: string): Promise<FlowInfo[]> {
    this.lastAskedMs = this.now();
    if (this.index) return this.index.get(pairKey(from, to)) ?? [];
    void this.read();
    return (await this.emulator.listFlows({ from, to })).flows;
  }

  stop(): void {
    this.unsubscribe();
  }

  /** Reads one page of flows (a read under way is shared); more flows than a page, or a failure, drop the index. */
  private read(): Promise<void> {
    this.reading ??= this.emulator
      .flowsPage(this.maxFlows)
      .then((page) => {
        if (page.total > page.flows.length) {
          this.index = null;
          return;
        }
        const index = new Map<string, FlowInfo[]>();
        for (const flow of page.flows) {
          const key = pairKey(flow.from, flow.to);
          const list = index.get(key);
          if (list) list.push(flow);
          else index.set(key, [flow]);
        }
        this.index = index;
      })
      .catch(() => {
        this.index = null;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}

function pairKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}
