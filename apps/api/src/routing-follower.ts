import { type Fabric, type ForwardingTables, tablesAfterSweep } from '@fabscope/topology';
import type { EmulatorClient } from './emulator-client.ts';
import type { SmTablesOrigin } from './sm-tables/origin.ts';

/** What the follower keeps current: the routes read `tables` (and their origin) on every request. */
export interface RoutedFabric {
  readonly fabric: Fabric;
  tables: ForwardingTables;
  tablesOrigin?: SmTablesOrigin;
}

/**
 * Keeps the API's forwarding tables those of the fabric manager. The emulator reports its sweeps
 * (`GET /v1/routing`: a sweep count, the engine it ran and the links that were down); when the
 * count changes, the tables that sweep computed are rebuilt here with the same engine on the same
 * surviving fabric (`tablesAfterSweep`), so `/api/v1/route` and the contention analysis show the
 * routes after a failure, not from before it. Polled on the API's sampling interval; a failed poll
 * keeps the tables and tries again next time. The emulated fabric manager is the demo's subnet
 * manager: from its first answer on, the tables' origin says so (`from: 'emulator'`, read at each
 * poll answered).
 */
export class RoutingFollower {
  private sweep = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;

  constructor(
    private readonly target: RoutedFabric,
    private readonly emulator: EmulatorClient,
    private readonly intervalMs: number,
  ) {}

  /** Polls once; true when the tables changed. Calls while one runs share it. */
  refresh(): Promise<boolean> {
    this.running ??= this.poll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
    void this.refresh();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async poll(): Promise<boolean> {
    let state: Awaited<ReturnType<EmulatorClient['getRouting']>>;
    try {
      state = await this.emulator.getRouting();
    } catch {
      return false;
    }
    const now = Date.now();
    const origin = this.target.tablesOrigin;
    if (state.sweep === this.sweep && origin?.from === 'emulator') {
      origin.readAtMs = now;
      return false;
    }
    if (state.sweep === this.sweep && state.engine === this.target.tables.engine) {
      // No sweep since the start: the tables computed at start are the fabric manager's.
      this.target.tablesOrigin = {
        source: 'sm',
        from: 'emulator',
        readAtMs: now,
        changedAtMs: null,
        missing: [],
      };
      return false;
    }
    let tables: ForwardingTables;
    try {
      tables = tablesAfterSweep(this.target.fabric, state.engine, state.downLinks);
    } catch {
      // An engine or link this fabric does not know: the emulator runs another fabric. Keep ours.
      return false;
    }
    this.target.tables = tables;
    this.target.tablesOrigin = {
      source: 'sm',
      from: 'emulator',
      readAtMs: now,
      changedAtMs: now,
      missing: [],
    };
    this.sweep = state.sweep;
    return true;
  }
}
