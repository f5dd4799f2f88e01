import type { RouteTables } from '@fabscope/contracts';

/** How the API reads the subnet manager's tables: a dump file, or a tool asking every switch. */
export type SmTablesFrom = 'lfts-dump' | 'ibroute' | 'dump_fts' | 'emulator';

/** Where the API's tables came from when they are the subnet manager's; replaced with them, so answers say which. */
export interface SmTablesOrigin {
  source: 'sm';
  from: SmTablesFrom;
  /** Last time the source was read and found to hold these tables; null: not read yet. */
  readAtMs: number | null;
  /** When the tables last changed (their first read included); null: not read yet. */
  changedAtMs: number | null;
  /** Switches of the topology the subnet manager gave no table for (their entries route nothing). */
  missing: readonly string[];
  /** Why the newest read was not applied; the tables are those read before. */
  error?: string;
}

/** The subnet manager's tables are configured but none has been read yet: nothing to answer from. */
export class SmTablesNotReadError extends Error {
  override name = 'SmTablesNotReadError';
}

export function assertTablesRead(origin: SmTablesOrigin | undefined): void {
  if (!origin || origin.readAtMs !== null) return;
  const why = origin.error ? `: ${origin.error}` : '';
  throw new SmTablesNotReadError(
    `the subnet manager's forwarding tables (${origin.from}) are not read yet${why}`,
  );
}

const MISSING_NAMES = 20;

/** The `tables` field of an answer: the subnet manager's (with age), or fabscope's engine. */
export function tablesAnswer(origin: SmTablesOrigin | undefined, engine: string, nowMs: number): RouteTables {
  if (!origin || origin.readAtMs === null) return { source: 'computed', engine };
  const answer: RouteTables = {
    source: 'sm',
    from: origin.from,
    readAt: new Date(origin.readAtMs).toISOString(),
    ageSeconds: Math.max(0, Math.round((nowMs - origin.readAtMs) / 100) / 10),
  };
  if (origin.changedAtMs !== null) answer.changedAt = new Date(origin.changedAtMs).toISOString();
  if (origin.missing.length > 0) {
    answer.missingSwitches = { count: origin.missing.length, names: origin.missing.slice(0, MISSING_NAMES) };
  }
  if (origin.error) answer.error = origin.error;
  return answer;
}
