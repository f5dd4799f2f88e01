import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyTopologyChanges,
  diffTopology,
  type TopologyChange,
  type TopologySnapshot,
} from '@fabscope/topology';

export type VersionSource = 'loaded' | 'discovered';

/** One topology version after the first kept: when, from where, and what changed from the one before. */
export interface TopologyVersion {
  version: number;
  timeMs: number;
  source: VersionSource;
  changes: TopologyChange[];
}

/** A whole topology at one version. */
export interface TopologyAt {
  version: number;
  timeMs: number;
  source: VersionSource;
  snapshot: TopologySnapshot;
}

/** Version `v` whole, as `snapshot`. */
function whole(v: TopologyVersion, snapshot: TopologySnapshot): TopologyAt {
  return { version: v.version, timeMs: v.timeMs, source: v.source, snapshot };
}

interface BaseLine {
  base: TopologyAt;
}

/** The versions file's name in FABSCOPE_EVENTS_DIR, beside events.jsonl. */
export const VERSIONS_FILE = 'topology-versions.jsonl';

/**
 * Topology versions, bounded: the oldest kept whole (`base`), each later one as its changes, the newest whole; only a
 * change makes a version, and beyond `maxVersions` the oldest is folded into the base.
 */
export class TopologyVersions {
  private base: TopologyAt;
  private chain: TopologyVersion[] = [];
  private newest: TopologyAt;
  private readonly file: string | undefined;
  /** Whole topologies asked for by time, by version: a few kept. */
  private readonly built = new Map<number, TopologySnapshot>();
  /** The version made at start (the one the API runs on). */
  readonly loadedVersion: number;

  private readonly maxVersions: number;

  constructor(
    loaded: TopologySnapshot,
    options: { nowMs: number; maxVersions: number; dir?: string | undefined },
  ) {
    this.maxVersions = Math.max(2, options.maxVersions);
    if (options.dir) mkdirSync(options.dir, { recursive: true });
    this.file = options.dir ? join(options.dir, VERSIONS_FILE) : undefined;
    const start: TopologyAt = { version: 1, timeMs: options.nowMs, source: 'loaded', snapshot: loaded };
    this.base = start;
    this.newest = start;
    const restored = this.file ? this.restore(this.file, loaded.name) : false;
    if (!restored) {
      this.rewrite();
      this.loadedVersion = 1;
      return;
    }
    this.record(loaded, options.nowMs, 'loaded');
    this.loadedVersion = this.newest.version;
  }

  latest(): TopologyAt {
    return this.newest;
  }

  /** The oldest instant answered. */
  historyFromMs(): number {
    return this.base.timeMs;
  }

  /** Records `snapshot` as of `timeMs` when it differs from the newest; the new version, or null. */
  record(snapshot: TopologySnapshot, timeMs: number, source: VersionSource): TopologyVersion | null {
    const changes = diffTopology(this.newest.snapshot, snapshot);
    if (changes.length === 0) return null;
    const version: TopologyVersion = {
      version: this.newest.version + 1,
      timeMs: Math.max(timeMs, this.newest.timeMs),
      source,
      changes,
    };
    this.chain.push(version);
    this.newest = whole(version, snapshot);
    if (this.chain.length + 1 > this.maxVersions) {
      while (this.chain.length + 1 > this.maxVersions) this.fold();
      this.rewrite();
    } else if (this.file) {
      appendFileSync(this.file, `${JSON.stringify(version)}\n`);
    }
    return version;
  }

  /** The topology in force at `timeMs`; null before the history kept. */
  at(timeMs: number): TopologyAt | null {
    if (timeMs < this.base.timeMs) return null;
    if (timeMs >= this.newest.timeMs) return this.newest;
    let i = 0;
    while (i < this.chain.length && (this.chain[i] as TopologyVersion).timeMs <= timeMs) i++;
    const last = i === 0 ? null : (this.chain[i - 1] as TopologyVersion);
    if (!last) return this.base;
    let snapshot = this.built.get(last.version);
    if (!snapshot) {
      snapshot = this.base.snapshot;
      for (let k = 0; k < i; k++)
        snapshot = applyTopologyChanges(snapshot, (this.chain[k] as TopologyVersion).changes);
      if (this.built.size >= 4) this.built.delete(this.built.keys().next().value as number);
      this.built.set(last.version, snapshot);
    }
    return whole(last, snapshot);
  }

  /** The version in force at `timeMs` (0 before the history). */
  versionAt(timeMs: number): number {
    if (timeMs < this.base.timeMs) return 0;
    let v = this.base.version;
    for (const c of this.chain) if (c.timeMs <= timeMs) v = c.version;
    return v;
  }

  /** Versions recorded in (fromMs, toMs], oldest first. */
  between(fromMs: number, toMs: number): TopologyVersion[] {
    return this.chain.filter((v) => v.timeMs > fromMs && v.timeMs <= toMs);
  }

  private fold(): void {
    const first = this.chain.shift();
    if (!first) return;
    this.base = whole(first, applyTopologyChanges(this.base.snapshot, first.changes));
    this.built.clear();
  }

  private rewrite(): void {
    if (!this.file) return;
    const lines = [
      JSON.stringify({ base: this.base } satisfies BaseLine),
      ...this.chain.map((v) => JSON.stringify(v)),
    ];
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${lines.join('\n')}\n`);
    renameSync(tmp, this.file);
  }

  /** Reads the file back; false when there is none, or it is of another fabric or unreadable. */
  private restore(file: string, fabricName: string): boolean {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    let base: TopologyAt | undefined;
    try {
      base = (JSON.parse(lines[0] ?? '') as Partial<BaseLine>).base;
    } catch {
      return false;
    }
    if (!base || typeof base.version !== 'number' || !base.snapshot || base.snapshot.name !== fabricName)
      return false;
    const chain: TopologyVersion[] = [];
    let newest = base.snapshot;
    for (const line of lines.slice(1)) {
      try {
        const v = JSON.parse(line) as TopologyVersion;
        if (typeof v.version !== 'number' || typeof v.timeMs !== 'number' || !Array.isArray(v.changes))
          continue;
        chain.push(v);
        newest = applyTopologyChanges(newest, v.changes);
      } catch {
        // a line cut short by a crash
      }
    }
    this.base = base;
    this.chain = chain;
    const last = chain.at(-1);
    this.newest = last ? whole(last, newest) : base;
    if (text !== '' && !text.endsWith('\n')) appendFileSync(file, '\n');
    return true;
  }
}
