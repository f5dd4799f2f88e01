import { type AdaptiveRoutingState, EmulatorClient } from '../emulator-client.ts';
import type { EventLog } from './event-log.ts';

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
    if (detail !== '')
      this.log.append({ timeMs: this.now(), kind: 'adaptive-routing', subject: 'fabric', detail });
    return after;
  }

  override async startFlows(
    request: object,
    first?: number,
  ): Promise<Awaited<ReturnType<EmulatorClient['startFlows']>>> {
    const answer = await super.startFlows(request, first);
    const items = 'items' in request && Array.isArray(request.items) ? request.items : [request];
    const patterns = items.map((i: { pattern?: unknown }) => String(i.pattern ?? '?')).join(', ');
    this.log.append({
      timeMs: this.now(),
      kind: 'traffic',
      subject: 'fabric',
      detail: `start ${patterns}: ${answer.started} flows running`,
    });
    return answer;
  }

  override async stopFlows(): Promise<Awaited<ReturnType<EmulatorClient['stopFlows']>>> {
    const answer = await super.stopFlows();
    this.log.append({ timeMs: this.now(), kind: 'traffic', subject: 'fabric', detail: 'stop every flow' });
    return answer;
  }

  override async injectFault(request: object): Promise<Awaited<ReturnType<EmulatorClient['injectFault']>>> {
    const answer = await super.injectFault(request);
    const { type, target } = answer.fault;
    this.log.append({ timeMs: this.now(), kind: 'fault', subject: target, detail: type });
    return answer;
  }

  override async clearFaults(): Promise<Awaited<ReturnType<EmulatorClient['clearFaults']>>> {
    const answer = await super.clearFaults();
    this.log.append({ timeMs: this.now(), kind: 'fault', subject: 'fabric', detail: 'repair everything' });
    return answer;
  }
}
