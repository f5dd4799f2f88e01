/**
 * Tells the sampler when Prometheus has evaluated the direction rules again, so the live tick reads recorded series
 * right after they change instead of on a clock of its own (whose phase added up to an interval to the data's age).
 */
export interface EvaluationWatchOptions {
  /** Seconds since the epoch of the newest evaluation, or null when there is none. */
  newestEvaluation: () => Promise<number | null>;
  /** The rules' evaluation interval. */
  intervalMs: number;
  now?: () => number;
}

export class EvaluationWatch {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private lastSeen: number | null = null;
  private lastFiredMs = Number.NEGATIVE_INFINITY;
  /** An evaluation landed that no tick has followed yet. */
  private pending = false;
  private readonly pollMs: number;
  private readonly now: () => number;

  constructor(private readonly options: EvaluationWatchOptions) {
    // A quarter of the interval, between 250 ms and 1 s: one small query each time.
    this.pollMs = Math.min(1000, Math.max(250, options.intervalMs / 4));
    this.now = options.now ?? Date.now;
  }

  /** Calls `listener` after each new evaluation; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) this.schedule();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.poll(), this.pollMs);
  }

  private async poll(): Promise<void> {
    try {
      const newest = await this.options.newestEvaluation();
      if (newest !== null && newest !== this.lastSeen) this.pending = true;
      if (newest !== null) this.lastSeen = newest;
    } catch {
      // Unreachable: the interval fallback below ticks, and that tick says why.
    }
    const sinceMs = this.now() - this.lastFiredMs;
    if ((this.pending && sinceMs >= this.options.intervalMs / 2) || sinceMs >= this.options.intervalMs) {
      this.lastFiredMs = this.now();
      this.pending = false;
      for (const listener of this.listeners) listener();
    }
    if (this.timer && this.listeners.size > 0) this.schedule();
  }
}
