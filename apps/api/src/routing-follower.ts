import { type ForwardingTables, tablesAfterSweep } from '@fabscope/topology';
import type { EmulatorClient } from './emulator-client.ts';
import { Poller } from './poller.ts';
import type { SmRoutedFabric } from './sm-tables/follower.ts';
import type { SmTablesOrigin } from './sm-tables/origin.ts';

/** Keeps the API's tables the emulated fabric manager's: rebuilt with its engine when its sweep count changes. */
export class RoutingFollower extends Poller {
  private sweep = 0;

  constructor(
    private readonly target: SmRoutedFabric,
    private readonly emulator: EmulatorClient,
    intervalMs: number,
  ) {
    super(intervalMs);
  }

  protected async poll(): Promise<boolean> {
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
      this.target.tablesOrigin = emulatorOrigin(now, null);
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
    this.target.tablesOrigin = emulatorOrigin(now, now);
    this.sweep = state.sweep;
    return true;
  }
}

function emulatorOrigin(readAtMs: number, changedAtMs: number | null): SmTablesOrigin {
  return { source: 'sm', from: 'emulator', readAtMs, changedAtMs, missing: [] };
}
