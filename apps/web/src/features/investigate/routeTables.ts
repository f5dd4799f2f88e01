import type { Route } from '../../api/types.ts';
import { formatClock } from '../../lib/format.ts';

export type RouteTables = NonNullable<Route['tables']>;

const TABLES_FROM = {
  'lfts-dump': 'opensm-lfts.dump',
  ibroute: 'ibroute',
  dump_fts: 'dump_fts',
  emulator: 'emulated fabric manager',
} as const;

/** Whose forwarding tables an answer follows: the subnet manager's (read when) or fabscope's engine. */
export function tablesText(tables: RouteTables, nowMs: number = Date.now()): string {
  if (tables.source === 'computed')
    return `computed by fabscope (${tables.engine}): no subnet manager's tables`;
  const missing = tables.missingSwitches ? ` · ${tables.missingSwitches.count} switches missing` : '';
  const failed = tables.error ? ' · last read failed' : '';
  return `subnet manager's (${TABLES_FROM[tables.from]}), read ${formatClock(Date.parse(tables.readAt), nowMs)}${missing}${failed}`;
}

/**
 * The routing engine beside a route's LIDs (`ftree tables`), or null: a dump read (OpenSM's
 * opensm-lfts.dump, ibroute, dump_fts) parses as `ibroute`, a format rather than an engine, and the
 * Tables row already says whose tables they are.
 */
export function engineText(engine: string | undefined, tables: RouteTables | undefined): string | null {
  if (!engine) return null;
  if (engine === 'ibroute' && tables?.source !== 'computed') return null;
  return `${engine} tables`;
}
