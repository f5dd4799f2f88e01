import type {
  Drift,
  DriftFindingRecord,
  EventSeverity,
  TopologyCable,
  TopologyChangeRecord,
  TopologyChanges,
} from '@fabscope/contracts';
import {
  describeTopologyChange,
  summarizeTopologyChanges,
  type TierOf,
  type TopologyChange,
  type TopologyLinkRecord,
  type TopologySnapshot,
  tiersOf,
} from '@fabscope/topology';
import type { FabricEvent } from '../lib/fabric-event.ts';
import type { DriftTracker, TrackedFinding } from './drift-tracker.ts';
import type { TopologyAt, TopologyVersion, TopologyVersions } from './versions.ts';

/** The intended design (FABSCOPE_EXPECTED_TOPOLOGY) and the tracker of its drift findings. */
export interface ExpectedTopology {
  file: string;
  snapshot: TopologySnapshot;
  tracker: DriftTracker;
}

/** A cable as answers carry it: the schema's serializer writes only TopologyCable's fields. */
const cable = (link: TopologyLinkRecord | null | undefined): TopologyCable | null => link ?? null;

/** A change as the API answers it. */
export function changeRecord(change: TopologyChange, tierOf?: TierOf): TopologyChangeRecord {
  const { subject, detail } = describeTopologyChange(change, tierOf);
  const [before, after] =
    change.kind === 'link-added'
      ? [null, change.link]
      : change.kind === 'link-removed'
        ? [change.link, null]
        : change.kind === 'link-moved' || change.kind === 'link-rate-changed'
          ? [change.before, change.after]
          : [null, null];
  return { kind: change.kind, subject, detail, before: cable(before), after: cable(after) };
}

/** What changed in (fromMs, toMs], at most `limit` changes listed. */
export function changesBetween(
  versions: TopologyVersions,
  fromMs: number,
  toMs: number,
  limit: number,
): TopologyChanges {
  let left = limit;
  let total = 0;
  const tierOf = tiersOf(versions.latest().snapshot);
  const listed = versions.between(fromMs, toMs).map((v) => {
    total += v.changes.length;
    const take = v.changes.slice(0, Math.max(0, left));
    left -= take.length;
    // Cables written as everywhere else (the end nearer the hosts first), by the newest tiers.
    const changes = take.map((c) => changeRecord(c, tierOf));
    return {
      ...v,
      time: new Date(v.timeMs).toISOString(),
      summary: summarizeTopologyChanges(v.changes),
      changes,
    };
  });
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    fromVersion: versions.versionAt(fromMs),
    toVersion: versions.versionAt(toMs),
    historyFrom: new Date(versions.historyFromMs()).toISOString(),
    complete: fromMs >= versions.historyFromMs(),
    total,
    versions: listed,
  };
}

/** The drift answer of a server given no intended design. */
export const NO_INTENDED_DESIGN: Drift = {
  configured: false,
  reason: 'no intended design: set FABSCOPE_EXPECTED_TOPOLOGY to a topology file',
  stableSeconds: 0,
  total: 0,
  pending: 0,
  findings: [],
};

/** Drift findings held for the window (or flapping), links first, at most `limit`. */
export function driftAnswer(
  expected: ExpectedTopology | undefined,
  latest: TopologyAt,
  nowMs: number,
  options: { limit: number; kind?: string | undefined },
): Drift {
  if (!expected) return NO_INTENDED_DESIGN;
  const report = expected.tracker.report(nowMs);
  const order = (t: TrackedFinding) => (t.finding.kind.endsWith('-node') ? 1 : 0);
  const findings = report.findings
    .filter((t) => options.kind === undefined || t.finding.kind === options.kind)
    .sort(
      (x, y) =>
        order(x) - order(y) ||
        (x.finding.subject < y.finding.subject ? -1 : x.finding.subject > y.finding.subject ? 1 : 0),
    );
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    configured: true,
    expected: {
      file: expected.file,
      nodes: expected.snapshot.nodes.length,
      links: expected.snapshot.links.length,
    },
    comparedWith: { source: latest.source, version: latest.version, time: iso(latest.timeMs) },
    stableSeconds: expected.tracker.stableMs / 1000,
    total: findings.length,
    pending: report.pending,
    findings: findings.slice(0, options.limit).map(
      (t): DriftFindingRecord => ({
        ...t.finding,
        expected: cable(t.finding.expected),
        actual: cable(t.finding.actual),
        firstSeen: iso(t.firstSeenMs),
        since: iso(t.sinceMs),
        lastSeen: iso(t.lastSeenMs),
        present: t.present,
        count: t.count,
        flapping: t.count >= 2,
      }),
    ),
  };
}

/** A `topology` event of the event log. */
export function topologyEvent(
  timeMs: number,
  subject: string,
  detail: string,
  severity: EventSeverity,
): FabricEvent {
  return { timeMs, kind: 'topology', subject, detail, severity };
}

/** Most events one new version writes; the rest are counted in one more. */
const MAX_EVENTS_PER_VERSION = 50;

const CHANGE_SEVERITY: Record<TopologyChange['kind'], EventSeverity> = {
  'node-appeared': 'info',
  'node-disappeared': 'warning',
  'node-changed': 'info',
  'link-added': 'info',
  'link-removed': 'warning',
  'link-moved': 'warning',
  'link-rate-changed': 'warning',
};

/** The `topology` events of a new version: one per change (the first few), then one counting the rest. */
export function versionEvents(version: TopologyVersion, tierOf?: TierOf): FabricEvent[] {
  const events: FabricEvent[] = version.changes.slice(0, MAX_EVENTS_PER_VERSION).map((change) => {
    const { subject, detail } = describeTopologyChange(change, tierOf);
    return topologyEvent(version.timeMs, subject, detail, CHANGE_SEVERITY[change.kind]);
  });
  const rest = version.changes.length - MAX_EVENTS_PER_VERSION;
  if (rest > 0) {
    events.push(
      topologyEvent(
        version.timeMs,
        'fabric',
        `${rest} more topology changes in version ${version.version} (GET /api/v1/topology/changes)`,
        'warning',
      ),
    );
  }
  return events;
}
