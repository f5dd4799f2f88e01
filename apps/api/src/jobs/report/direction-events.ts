import type { CategoryName } from '@fabscope/topology';
import type { FabricEvent } from '../../lib/fabric-event.ts';

/** What the event log says of one direction over the window: link state changes and error thresholds crossed. */
export interface DirectionEvents {
  flaps: number;
  downSeconds: number;
  errorsRaised: number;
  erroredSeconds: number;
  /** The first link-down and the first error threshold crossed in the window: evidence instants. */
  firstDownMs: number | null;
  firstErrorMs: number | null;
}

/** The PM category the health watch names first in its event when a direction's error counters cross their threshold. */
const ERROR_CATEGORY: CategoryName = 'integrity';

const empty = (): DirectionEvents => ({
  flaps: 0,
  downSeconds: 0,
  errorsRaised: 0,
  erroredSeconds: 0,
  firstDownMs: null,
  firstErrorMs: null,
});

/**
 * Per direction id, its events over [fromMs, toMs]. Link-state events name the link (`linkOf`), thresholds the
 * direction; events before `fromMs` only set the state the window starts in. Events must be in time order.
 */
export function eventsByDirection(
  ids: readonly string[],
  linkOf: (id: string) => string | undefined,
  events: readonly FabricEvent[],
  fromMs: number,
  toMs: number,
): Map<string, DirectionEvents> {
  const out = new Map<string, DirectionEvents>();
  const byLink = new Map<string, string[]>();
  for (const id of ids) {
    out.set(id, empty());
    const link = linkOf(id);
    if (link !== undefined) byLink.set(link, [...(byLink.get(link) ?? []), id]);
  }
  const downSince = new Map<string, number>();
  const errorSince = new Map<string, number>();
  const clip = (ms: number) => Math.min(toMs, Math.max(fromMs, ms));
  const close = (
    open: Map<string, number>,
    id: string,
    atMs: number,
    add: (d: DirectionEvents, s: number) => void,
  ) => {
    const since = open.get(id);
    if (since === undefined) return;
    open.delete(id);
    add(out.get(id) as DirectionEvents, (clip(atMs) - clip(since)) / 1000);
  };
  for (const e of events) {
    if (e.timeMs > toMs) break;
    const inWindow = e.timeMs >= fromMs;
    if (e.kind === 'link-state') {
      for (const id of byLink.get(e.subject) ?? (out.has(e.subject) ? [e.subject] : [])) {
        const d = out.get(id) as DirectionEvents;
        if (e.detail === 'link down') {
          if (downSince.has(id)) continue;
          downSince.set(id, e.timeMs);
          if (!inWindow) continue;
          d.flaps++;
          d.firstDownMs ??= e.timeMs;
        } else close(downSince, id, e.timeMs, (x, s) => (x.downSeconds += s));
      }
    } else if (e.kind === 'threshold' && out.has(e.subject) && e.detail.startsWith(`${ERROR_CATEGORY} `)) {
      const d = out.get(e.subject) as DirectionEvents;
      if (e.severity !== undefined && e.severity !== 'info') {
        if (!errorSince.has(e.subject)) errorSince.set(e.subject, e.timeMs);
        if (!inWindow) continue;
        d.errorsRaised++;
        d.firstErrorMs ??= e.timeMs;
      } else close(errorSince, e.subject, e.timeMs, (x, s) => (x.erroredSeconds += s));
    }
  }
  for (const id of downSince.keys()) close(downSince, id, toMs, (x, s) => (x.downSeconds += s));
  for (const id of errorSince.keys()) close(errorSince, id, toMs, (x, s) => (x.erroredSeconds += s));
  return out;
}
