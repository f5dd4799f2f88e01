import type { FabricEvent } from './event-log.ts';

/** Faults made through the API that send counters back to 0 (`fault` events' detail). */
const RESETTING = new Set(['restart', 'clear-counters', 'switch-up', 'repair everything']);
/** How long after such a fault a reset it explains may be seen (a scrape or two, a slow store). */
export const EXPLAINED_FOR_MS = 60_000;

/** Whether a fault on `subject` (a port, its node, or the whole fabric) covers port `node/port`. */
function covers(subject: string, port: string): boolean {
  return subject === port || subject === 'fabric' || port.startsWith(`${subject}/`);
}

/**
 * Tells resets fabscope caused (a restart, or a clear or repair asked through the API: `fault` events), `info`, from
 * unexpected clears, `warning`, as opafm's PM does ("make sure no other tools are clearing fabric counters").
 */
export function classifyResets(events: readonly FabricEvent[]): FabricEvent[] {
  const faults = events.filter((e) => e.kind === 'fault' && RESETTING.has(e.detail));
  return events.map((e) => {
    if (e.kind !== 'counter-reset') return e;
    const cause = faults.find(
      (f) => f.timeMs <= e.timeMs && e.timeMs - f.timeMs <= EXPLAINED_FOR_MS && covers(f.subject, e.subject),
    );
    return cause
      ? { ...e, detail: `counters reset by ${cause.detail} through fabscope`, severity: 'info' }
      : {
          ...e,
          detail:
            'unexpected clear: counters went backwards without fabscope causing it (another tool cleared them, or the device restarted); the interval is a gap, not a spike',
          severity: 'warning',
        };
  });
}
