import type { FabricEvent } from './event-log.ts';
import { EXPLAINED_FOR_MS } from './unexpected-clear.ts';

/** Faults made through the API that take a link down, or bring it back. */
const DOWNING = new Set(['link-down', 'flap', 'switch-down', 'restart']);
const UPPING = new Set(['link-up', 'switch-up', 'repair everything', 'flap']);

/** The nodes of a link id `a/p--b/q`. */
function nodesOf(linkId: string): string[] {
  return linkId.split('--').map((end) => end.slice(0, end.lastIndexOf('/')));
}

/**
 * Link state changes with their reason where fabscope knows it (a fault asked through the API in the minute before, on
 * the link or one of its switches), and a severity: a link down is an `error`, a link up `info`.
 */
export function explainLinkStates(events: readonly FabricEvent[]): FabricEvent[] {
  const faults = events.filter((e) => e.kind === 'fault');
  return events.map((e) => {
    if (e.kind !== 'link-state') return e;
    const down = e.detail.startsWith('link down');
    const nodes = nodesOf(e.subject);
    const cause = faults.find(
      (f) =>
        f.timeMs <= e.timeMs &&
        e.timeMs - f.timeMs <= EXPLAINED_FOR_MS &&
        (down ? DOWNING : UPPING).has(f.detail) &&
        (f.subject === e.subject || f.subject === 'fabric' || nodes.includes(f.subject)),
    );
    const reason = cause ? `${cause.detail} through fabscope` : down ? 'not caused through fabscope' : null;
    return {
      ...e,
      detail: reason ? `${down ? 'link down' : 'link up'} (${reason})` : e.detail,
      severity: down ? 'error' : 'info',
    };
  });
}
