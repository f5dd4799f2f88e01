import type { Health } from '@fabscope/contracts';
import type { LinkFrame } from '../lib/frame.ts';
import type { EventLog } from './event-log.ts';

/** `HH:MM:SS` (UTC) of a Unix ms time, as events and alarms name an instant. */
export function clockTime(timeMs: number): string {
  return new Date(timeMs).toISOString().slice(11, 19);
}

/**
 * Whether the collection as a whole delivers data, tick by tick: one `collection` event when it stops (no port has a
 * fresh reading, or the newest sample is stale) and one when it is back. While it is stopped the live view and history
 * are unknown, and the health watch writes no per-port gaps (one stall is one event, not one per port).
 */
export class CollectionWatch {
  /** Newest sample time (Unix ms) of the last tick with data; null before any. */
  private lastDataMs: number | null = null;
  private stoppedAtMs: number | null = null;

  constructor(private readonly log: EventLog) {}

  /** True from the tick data stopped until the tick it is back. */
  get stopped(): boolean {
    return this.stoppedAtMs !== null;
  }

  observe(timeMs: number, health: Health, frame: LinkFrame): void {
    const age = health.lastSampleAgeSeconds;
    const fresh = age !== null && age <= health.staleAfterSeconds && frame.portsRead.indexOf(1) >= 0;
    if (fresh) {
      const since = this.stoppedAtMs;
      if (since !== null && this.lastDataMs !== null) {
        const seconds = (timeMs - age * 1000 - this.lastDataMs) / 1000;
        this.log.append({
          timeMs,
          kind: 'collection',
          subject: 'fabric',
          severity: 'info',
          detail: `data again: none from ${clockTime(this.lastDataMs)} for ${seconds.toFixed(1)} s (a gap in the history)`,
        });
      }
      this.stoppedAtMs = null;
      this.lastDataMs = timeMs - age * 1000;
      return;
    }
    // Only data that stops is an event: a store still starting up has none yet.
    if (this.lastDataMs === null || this.stoppedAtMs !== null) return;
    this.stoppedAtMs = timeMs;
    const reason = health.error ?? (age === null ? 'no samples' : `newest sample ${age.toFixed(1)} s old`);
    this.log.append({
      timeMs,
      kind: 'collection',
      subject: 'fabric',
      severity: 'warning',
      detail: `no data since ${clockTime(this.lastDataMs)}: ${reason}; the live view and history are unknown until it is back`,
    });
  }
}
