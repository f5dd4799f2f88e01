import { type FabricSummary, type LinkDirectionState, type LinkIndex, linkDirectionStates, summarize } from './lib/utilization.ts';
import type { MetricsStore } from './store/types.ts';

export interface Health {
  status: 'ok' | 'degraded';
  store: MetricsStore['kind'];
  lastSampleAgeSeconds: number | null;
  error?: string;
}

export interface Tick {
  time: string;
  health: Health;
  summary: FabricSummary;
  links: LinkDirectionState[];
}

/** Data older than this is stale on screen and in /health. */
export const STALE_AFTER_SECONDS = 5;

/**
 * The one refresh clock: once per interval, read rates from the store, compute every link's
 * utilization and the summary, and hand the same result to every reader and stream client.
 */
export class Sampler {
  private latest: Tick | null = null;
  private latestJson = '';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Tick> | null = null;
  private readonly listeners = new Set<(json: string) => void>();

  constructor(
    private readonly store: MetricsStore,
    private readonly index: LinkIndex,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Samples now (sharing a sample already under way). */
  sample(): Promise<Tick> {
    this.running ??= this.compute().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async current(): Promise<Tick> {
    return this.latest ?? (await this.sample());
  }

  subscribe(listener: (json: string) => void): () => void {
    this.listeners.add(listener);
    if (this.latestJson) listener(this.latestJson);
    return () => this.listeners.delete(listener);
  }

  get clientCount(): number {
    return this.listeners.size;
  }

  private async compute(): Promise<Tick> {
    const snapshot = await this.store.rates();
    const links = linkDirectionStates(this.index, snapshot);
    const summary = summarize(this.index, links, snapshot.timeMs);
    const age = snapshot.lastSampleAgeSeconds;
    const fresh = snapshot.ok && age !== null && age <= STALE_AFTER_SECONDS;
    const health: Health = { status: fresh ? 'ok' : 'degraded', store: this.store.kind, lastSampleAgeSeconds: age };
    if (snapshot.error) health.error = snapshot.error;
    else if (!fresh) health.error = age === null ? 'no samples yet' : `newest sample is ${age.toFixed(1)} s old`;
    const tick: Tick = { time: summary.time, health, summary, links };
    this.latest = tick;
    this.latestJson = JSON.stringify(tick);
    for (const listener of this.listeners) listener(this.latestJson);
    return tick;
  }
}
