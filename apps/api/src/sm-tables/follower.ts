import {
  applyIbroute,
  emptyTables,
  type Fabric,
  type ForwardingTables,
  ParseError,
  switchesWithoutDump,
} from '@fabscope/topology';
import type { EventLog } from '../events/event-log.ts';
import { Poller } from '../poller.ts';
import type { SmTablesOrigin } from './origin.ts';
import type { SmTablesSource } from './source.ts';

/** What the follower keeps current: the routes read `tables` and `tablesOrigin` on every request. */
export interface SmRoutedFabric {
  fabric: Fabric;
  tables: ForwardingTables;
  tablesOrigin?: SmTablesOrigin;
}

export interface SmTablesFollowerOptions {
  intervalMs: number;
  /** Where `routing` events go (re-routes, switches missing). */
  events?: EventLog | undefined;
  now?: () => number;
}

/**
 * Keeps the forwarding tables the SM's, read every interval; a change replaces `target.tables` whole and records a
 * `routing` event. A switch without an SM table routes nothing (in `tablesOrigin.missing`); a failed read keeps them.
 */
export class SmTablesFollower extends Poller {
  private applied: string | undefined;
  private readFailure: string | undefined;
  /** A versioned dump missing switches is taken only once it stays the same for one more check. */
  private held: string | undefined;
  private readonly now: () => number;
  readonly origin: SmTablesOrigin;

  constructor(
    private readonly target: SmRoutedFabric,
    private readonly source: SmTablesSource,
    private readonly options: SmTablesFollowerOptions,
  ) {
    super(options.intervalMs);
    this.now = options.now ?? Date.now;
    this.origin = { source: 'sm', from: source.from, readAtMs: null, changedAtMs: null, missing: [] };
    target.tables = emptyTables(target.fabric, 'ibroute');
    target.tablesOrigin = this.origin;
  }

  /** Why the SM's tables cannot be read now (the read itself failed); undefined while they can. */
  unreadable(): string | undefined {
    return this.readFailure;
  }

  /** The fabric grew: reads the tables again for it, even unchanged ones; the old ones serve meanwhile. */
  reread(): Promise<boolean> {
    this.source.useFabric?.(this.target.fabric);
    this.applied = undefined;
    this.held = undefined;
    return this.refresh();
  }

  protected async poll(): Promise<boolean> {
    let read: Awaited<ReturnType<SmTablesSource['read']>>;
    try {
      read = await this.source.read(this.applied);
    } catch (error) {
      this.readFailure = (error as Error).message;
      this.origin.error = `reading the tables failed: ${this.readFailure}`;
      return false;
    }
    this.readFailure = undefined;
    const now = this.now();
    if (read.kind === 'unchanged') {
      this.origin.readAtMs = now;
      delete this.origin.error;
      return false;
    }
    if (read.kind === 'not-ready') return false;
    const { fabric } = this.target;
    let tables: ForwardingTables;
    try {
      tables = applyIbroute(fabric, emptyTables(fabric, 'none'), read.text);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      this.origin.error = `the subnet manager's tables do not fit the topology or are damaged: ${error.message}`;
      return false;
    }
    const missing = missingSwitches(fabric, tables, read.failed);
    if (read.version !== undefined && missing.length > 0 && read.version !== this.held) {
      // A dump cut at a table boundary looks complete: take it only if it is still the same next time.
      this.held = read.version;
      return false;
    }
    const first = this.origin.readAtMs === null;
    const changed = changedSwitches(fabric, this.target.tables, tables);
    this.applied = read.version;
    this.origin.readAtMs = now;
    delete this.origin.error;
    if (!first && changed === 0 && missing.join('\n') === this.origin.missing.join('\n')) return false;
    this.target.tables = tables;
    this.origin.changedAtMs = now;
    this.origin.missing = missing;
    this.record(now, first, changed, missing);
    return true;
  }

  private record(timeMs: number, first: boolean, changed: number, missing: readonly string[]): void {
    if (!this.options.events) return;
    const switches = this.target.fabric.nodes.filter((n) => n.type === 'switch').length;
    const lacking =
      missing.length > 0
        ? `; ${missing.length} switches have no table from it: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`
        : '';
    const detail = first
      ? `routes from the subnet manager's tables (${this.source.from}): ${switches - missing.length} of ${switches} switches${lacking}`
      : `subnet manager re-routed: ${changed} switches' tables changed${lacking}`;
    this.options.events.append({
      timeMs,
      kind: 'routing',
      subject: 'fabric',
      detail,
      severity: missing.length > 0 ? 'warning' : 'info',
    });
  }
}

/** Switches of the fabric no dump gave a table (topology's switchesWithoutDump), and those a query could not read. */
function missingSwitches(
  fabric: Fabric,
  tables: ForwardingTables,
  failed: ReadonlyMap<string, string> | undefined,
): string[] {
  const missing = new Set(switchesWithoutDump(fabric, tables).map((n) => n.name));
  for (const name of failed?.keys() ?? []) missing.add(name);
  return fabric.nodes.filter((n) => missing.has(n.name)).map((n) => n.name);
}

function changedSwitches(fabric: Fabric, before: ForwardingTables, after: ForwardingTables): number {
  let changed = 0;
  for (const node of fabric.nodes) {
    if (node.type !== 'switch') continue;
    const a = before.bySwitch[node.index];
    const b = after.bySwitch[node.index];
    if (a !== b && (!a || !b || a.length !== b.length || a.some((v, i) => v !== b[i]))) changed++;
  }
  return changed;
}
