import { type AdaptiveRoutingState, EmulatorClient } from '../emulator-client.ts';
import type { EventLog, FabricEvent } from './event-log.ts';

/** "enabled false → true, threshold 0 → 7": the fields that changed, old → new. */
export function describeChange(before: object | null, after: object): string {
  const old = (before ?? {}) as Record<string, unknown>;
  const changed = Object.entries(after)
    .filter(([key, value]) => old[key] !== value)
    .map(([key, value]) => `${key} ${before === null ? '?' : String(old[key])} → ${String(value)}`);
  return changed.join(', ');
}

/** How far the emulator's clock may be from ours for its time of a fault to be taken (scrape-request.ts alike). */
const CLOCKS_AGREE_WITHIN_MS = 10_000;

/**
 * When a fault took effect: when it was asked, or the emulator's own time of it if earlier. The emulator's clock is
 * the one its counters are stamped with, and it runs behind ours by up to a tick, so a link seen down by the first
 * sweep after the fault can be stamped before the request was even answered.
 */
export function faultTimeMs(askedMs: number, emulatorSinceMs: number): number {
  if (!Number.isFinite(emulatorSinceMs) || askedMs - emulatorSinceMs > CLOCKS_AGREE_WITHIN_MS) return askedMs;
  return Math.min(askedMs, emulatorSinceMs);
}

/**
 * The emulator client the routes use, writing an event for every change made through the API: adaptive routing (each
 * changed field, old → new), traffic started or stopped, faults injected or repaired.
 */
export class RecordingEmulatorClient extends EmulatorClient {
  constructor(
    baseUrl: string,
    timeoutMs: number,
    token: string | undefined,
    private readonly log: EventLog,
    private readonly now: () => number = Date.now,
  ) {
    super(baseUrl, timeoutMs, token);
  }

  override async setAdaptiveRouting(patch: Partial<AdaptiveRoutingState>): Promise<AdaptiveRoutingState> {
    const before = await super.getAdaptiveRouting().catch(() => null);
    const after = await super.setAdaptiveRouting(patch);
    const detail = describeChange(before, after);
    if (detail !== '') this.note('adaptive-routing', 'fabric', detail);
    return after;
  }

  override async startFlows(request: object, first?: number) {
    const answer = await super.startFlows(request, first);
    const items = 'items' in request && Array.isArray(request.items) ? request.items : [request];
    const patterns = items.map((i: { pattern?: unknown }) => String(i.pattern ?? '?')).join(', ');
    this.note('traffic', 'fabric', `start ${patterns}: ${answer.started} flows running`);
    return answer;
  }

  override async stopFlows() {
    const answer = await super.stopFlows();
    this.note('traffic', 'fabric', 'stop every flow');
    return answer;
  }

  override async injectFault(request: object) {
    const askedMs = this.now();
    const answer = await super.injectFault(request);
    const { type, target, sinceMs } = answer.fault;
    this.note('fault', target, type, faultTimeMs(askedMs, sinceMs));
    return answer;
  }

  override async clearFaults() {
    const askedMs = this.now();
    const answer = await super.clearFaults();
    this.note('fault', 'fabric', 'repair everything', askedMs);
    return answer;
  }

  private note(kind: FabricEvent['kind'], subject: string, detail: string, timeMs = this.now()): void {
    this.log.append({ timeMs, kind, subject, detail });
  }
}
