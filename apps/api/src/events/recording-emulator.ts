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
    const answer = await super.injectFault(request);
    const { type, target } = answer.fault;
    this.note('fault', target, type);
    return answer;
  }

  override async clearFaults() {
    const answer = await super.clearFaults();
    this.note('fault', 'fabric', 'repair everything');
    return answer;
  }

  private note(kind: FabricEvent['kind'], subject: string, detail: string): void {
    this.log.append({ timeMs: this.now(), kind, subject, detail });
  }
}
