import type { Drift, TopologyChanges, TopologyStatus } from '@fabscope/contracts';
import {
  type DriftFinding,
  diffTopology,
  type Fabric,
  fabricOfSnapshot,
  summarizeTopologyChanges,
  type TopologyChange,
  type TopologySnapshot,
  tiersOf,
  topologyDrift,
  topologySnapshot,
} from '@fabscope/topology';
import type { EventLog } from '../lib/fabric-event.ts';
import {
  changesBetween,
  driftAnswer,
  type ExpectedTopology,
  topologyEvent,
  versionEvents,
} from './answers.ts';
import type { TopologyAt, TopologyVersion, TopologyVersions } from './versions.ts';

/** A port changing state is followed by a discovery this much later (more changes coalesce). */
const PROMPT_DELAY_MS = 1000;
/** …and looked at again this much after that discovery. */
const SETTLE_MS = 5000;

export interface LiveTopologyOptions {
  /** The fabric the API loaded and runs on (its LinkIndex, tables, store mapping). */
  loaded: Fabric;
  /** topologySnapshot(loaded), when the caller has it already. */
  loadedSnapshot?: TopologySnapshot | undefined;
  versions: TopologyVersions;
  /** Reads the fabric as it is now (ibnetdiscover -p); absent: the topology never changes while running. */
  discover?: (() => Promise<Fabric>) | undefined;
  intervalMs: number;
  events?: EventLog | undefined;
  /** The intended design and its stability window, when FABSCOPE_EXPECTED_TOPOLOGY is set. */
  expected?: ExpectedTopology | undefined;
  /** Every successful discovery's topology (the drawn fabric follows it: drawn-fabric.ts). */
  onDiscovered?: ((snapshot: TopologySnapshot, timeMs: number) => void) | undefined;
  now?: () => number;
}

/**
 * The topology over time: versions (loaded, then each differing discovery), a topology event per change, discovery on a
 * schedule and promptly after a port changes state (`prompt`), and drift of the newest version against the design.
 */
export class LiveTopology {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private promptTimer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private driftTimer: NodeJS.Timeout | undefined;
  /** Drift findings announced as events, by key. */
  private readonly announced = new Map<string, DriftFinding>();
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private discoveredAtMs: number | null = null;
  private lastError: string | undefined;
  /** diff(loaded, newest), computed once per version. */
  private fromLoaded: { version: number; changes: TopologyChange[] } | null = null;
  private readonly loadedSnapshot: TopologySnapshot;
  private readonly builtFabrics = new Map<number, Fabric>();

  constructor(private readonly options: LiveTopologyOptions) {
    this.now = options.now ?? Date.now;
    this.loadedSnapshot = options.loadedSnapshot ?? topologySnapshot(options.loaded);
    this.observeDrift(options.versions.latest().snapshot);
  }

  get live(): boolean {
    return this.options.discover !== undefined;
  }

  start(): void {
    if (this.options.expected && !this.driftTimer) {
      // Findings come due when their window has passed, between discoveries too.
      this.driftTimer = setInterval(() => this.announceDrift(), 1000);
      this.driftTimer.unref();
    }
    if (!this.options.discover || this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.options.intervalMs);
    this.timer.unref();
  }

  /**
   * A `topology` event when a drift finding is first reported (held for the window, or flapping)
   * and when it is resolved; a flapping finding is announced once, not at each flap.
   */
  announceDrift(nowMs = this.now()): void {
    const expected = this.options.expected;
    const events = this.options.events;
    if (!expected || !events) return;
    const reported = new Map(expected.tracker.report(nowMs).findings.map((t) => [t.finding.key, t.finding]));
    for (const [key, finding] of reported) {
      if (this.announced.has(key)) continue;
      this.announced.set(key, finding);
      events.append(topologyEvent(nowMs, finding.subject, `drift: ${finding.detail}`, 'warning'));
    }
    for (const [key, finding] of this.announced) {
      if (reported.has(key)) continue;
      this.announced.delete(key);
      events.append(topologyEvent(nowMs, finding.subject, `drift resolved: ${finding.detail}`, 'info'));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.promptTimer);
    clearTimeout(this.settleTimer);
    clearInterval(this.driftTimer);
    await this.running?.catch(() => undefined);
  }

  /**
   * A port changed state: discover soon (once for a burst of changes), and once more a few seconds
   * later, when the subnet manager has brought the port up or the cable's other end has settled.
   */
  prompt(): void {
    if (!this.options.discover || this.stopped) return;
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    if (this.promptTimer) return;
    this.promptTimer = setTimeout(() => {
      this.promptTimer = undefined;
      void this.refresh().then(() => {
        if (this.stopped || this.promptTimer || this.settleTimer) return;
        this.settleTimer = setTimeout(() => {
          this.settleTimer = undefined;
          void this.refresh();
        }, SETTLE_MS);
        this.settleTimer.unref();
      });
    }, PROMPT_DELAY_MS);
    this.promptTimer.unref();
  }

  /** Discovers now (after the discovery under way, when there is one). */
  refresh(): Promise<void> {
    if (!this.options.discover || this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.discoverOnce();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async discoverOnce(): Promise<void> {
    const discover = this.options.discover as () => Promise<Fabric>;
    let fabric: Fabric;
    try {
      fabric = await discover();
    } catch (error) {
      const message = (error as Error).message.split('\n')[0] ?? String(error);
      if (this.lastError === undefined) {
        this.options.events?.append(
          topologyEvent(this.now(), 'fabric', `topology discovery failed: ${message}`, 'warning'),
        );
      }
      this.lastError = message;
      return;
    }
    if (this.stopped) return;
    const nowMs = this.now();
    this.lastError = undefined;
    this.discoveredAtMs = nowMs;
    const snapshot = topologySnapshot(fabric);
    const version = this.options.versions.record(snapshot, nowMs, 'discovered');
    if (version) this.announce(version);
    this.options.onDiscovered?.(snapshot, nowMs);
    this.observeDrift(this.options.versions.latest().snapshot, nowMs);
    this.announceDrift(nowMs);
  }

  /** One event per change (the first few; then one counting the rest). */
  private announce(version: TopologyVersion): void {
    const tierOf = tiersOf(this.options.versions.latest().snapshot);
    for (const event of versionEvents(version, tierOf)) this.options.events?.append(event);
  }

  private observeDrift(snapshot: TopologySnapshot, nowMs = this.now()): void {
    const expected = this.options.expected;
    if (expected) expected.tracker.observe(topologyDrift(expected.snapshot, snapshot), nowMs);
  }

  private changesFromLoaded(): TopologyChange[] {
    const latest = this.options.versions.latest();
    if (this.fromLoaded?.version !== latest.version) {
      this.fromLoaded = {
        version: latest.version,
        changes: diffTopology(this.loadedSnapshot, latest.snapshot),
      };
    }
    return this.fromLoaded.changes;
  }

  status(): TopologyStatus {
    const latest = this.options.versions.latest();
    const changes = this.changesFromLoaded();
    const expected = this.options.expected;
    return {
      live: this.live,
      intervalMs: this.live ? this.options.intervalMs : null,
      version: latest.version,
      loadedVersion: this.options.versions.loadedVersion,
      discoveredAt: this.discoveredAtMs === null ? null : new Date(this.discoveredAtMs).toISOString(),
      changed: changes.length > 0,
      summary: summarizeTopologyChanges(changes),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      drift: {
        configured: expected !== undefined,
        findings: expected ? expected.tracker.report(this.now()).findings.length : 0,
      },
    };
  }

  /** What /health says of the topology (its schema writes changed, version, discoveredAt and summary). */
  healthNote(): TopologyStatus {
    const s = this.status();
    return {
      ...s,
      summary: s.changed
        ? `topology changed since loaded: ${s.summary}`
        : s.live
          ? 'topology as loaded'
          : 'topology loaded at start (no discovery)',
    };
  }

  /** The topology in force at `timeMs` as a Fabric; null before the history kept. */
  fabricAt(timeMs: number): { fabric: Fabric; at: TopologyAt } | null {
    const at = this.options.versions.at(timeMs);
    if (!at) return null;
    let fabric = this.builtFabrics.get(at.version);
    if (!fabric) {
      // The loaded fabric itself where nothing differs: the same link ids, nothing rebuilt.
      const same = diffTopology(this.loadedSnapshot, at.snapshot).length === 0;
      fabric = same ? this.options.loaded : fabricOfSnapshot(at.snapshot);
      if (this.builtFabrics.size >= 4)
        this.builtFabrics.delete(this.builtFabrics.keys().next().value as number);
      this.builtFabrics.set(at.version, fabric);
    }
    return { fabric, at };
  }

  historyFromMs(): number {
    return this.options.versions.historyFromMs();
  }

  /** What changed in (fromMs, toMs], at most `limit` changes listed. */
  changes(fromMs: number, toMs: number, limit: number): TopologyChanges {
    return changesBetween(this.options.versions, fromMs, toMs, limit);
  }

  /** Drift findings held for the window (or flapping), links first, at most `limit`. */
  drift(options: { limit: number; kind?: string | undefined }): Drift {
    return driftAnswer(this.options.expected, this.options.versions.latest(), this.now(), options);
  }
}
