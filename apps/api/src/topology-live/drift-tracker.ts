import type { DriftFinding } from '@fabscope/topology';

/** A finding with its history: when it came, how long it has held, how often it came back. */
export interface TrackedFinding {
  finding: DriftFinding;
  firstSeenMs: number;
  /** Start of the current stretch (present), or of the last one (gone). */
  sinceMs: number;
  lastSeenMs: number;
  present: boolean;
  /** When it went away, while it is gone. */
  goneMs: number | null;
  /** Times it appeared: 2 and more is a flapping cable. */
  count: number;
}

/**
 * The stability window of drift (as UFM's Topology Compare): a finding is reported once it has held `stableMs` in every
 * comparison since it appeared, so a cable being re-seated is not drift.
 */
export class DriftTracker {
  private readonly tracked = new Map<string, TrackedFinding>();

  constructor(readonly stableMs: number) {}

  /** The findings of one comparison, made at `nowMs`. */
  observe(findings: readonly DriftFinding[], nowMs: number): void {
    const seen = new Set<string>();
    for (const f of findings) {
      seen.add(f.key);
      const t = this.tracked.get(f.key);
      if (!t) {
        this.tracked.set(f.key, {
          finding: f,
          firstSeenMs: nowMs,
          sinceMs: nowMs,
          lastSeenMs: nowMs,
          present: true,
          goneMs: null,
          count: 1,
        });
        continue;
      }
      t.finding = f;
      t.lastSeenMs = nowMs;
      if (!t.present) {
        t.present = true;
        t.goneMs = null;
        t.sinceMs = nowMs;
        t.count++;
      }
    }
    for (const t of this.tracked.values()) {
      if (t.present && !seen.has(t.finding.key)) {
        t.present = false;
        t.goneMs = nowMs;
      }
    }
    this.forget(nowMs);
  }

  /** Reported findings as of `nowMs` (held for the window, or flapping), and how many wait. */
  report(nowMs: number): { findings: TrackedFinding[]; pending: number } {
    this.forget(nowMs);
    const findings: TrackedFinding[] = [];
    let pending = 0;
    for (const t of this.tracked.values()) {
      if ((t.present && nowMs - t.sinceMs >= this.stableMs) || t.count >= 2) findings.push(t);
      else if (t.present) pending++;
    }
    return { findings, pending };
  }

  /** Gone for the whole window: resolved. */
  private forget(nowMs: number): void {
    for (const [key, t] of this.tracked) {
      if (!t.present && t.goneMs !== null && nowMs - t.goneMs >= this.stableMs) this.tracked.delete(key);
    }
  }
}
