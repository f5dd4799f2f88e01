import { type Static, Type } from '@sinclair/typebox';
import { DRIFT_KINDS, TOPOLOGY_CHANGE_KINDS } from '../names.ts';
import { Closed, Literals, Nullable } from './common.ts';
import { TimeParam } from './time.ts';
import { LinkKindSchema, PortRefSchema } from './topology.ts';

/**
 * The topology over time and its drift from the intended design. Nodes are named by their identity
 * across topologies: the NodeDescription, or the GUID where several nodes share one (or have none).
 */

const DateTime = Type.String({ format: 'date-time' });

export const TopologyCableSchema = Type.Object({
  a: PortRefSchema,
  b: PortRefSchema,
  kind: LinkKindSchema,
  rateGbps: Type.Number(),
  widthSpeed: Type.Optional(
    Type.String({ description: 'Width × speed as discovery printed it, e.g. 4xEDR' }),
  ),
});
export type TopologyCable = Static<typeof TopologyCableSchema>;

export const TopologyChangeSchema = Type.Object({
  kind: Literals(TOPOLOGY_CHANGE_KINDS, {
    description:
      'link-moved: the same port now cabled elsewhere (subject the port, before and after the two cables); link-rate-changed: width or speed',
  }),
  subject: Type.String({ description: 'A link `a/port--b/port`, a port `node/port` or a node' }),
  detail: Type.String(),
  before: Nullable(TopologyCableSchema),
  after: Nullable(TopologyCableSchema),
});
export type TopologyChangeRecord = Static<typeof TopologyChangeSchema>;

export const TopologyTimeQuery = Closed({
  time: Type.Optional(TimeParam('The instant the topology is asked for; absent = the one the API runs on')),
});
export type TopologyTimeQuery = Static<typeof TopologyTimeQuery>;

export const TopologyChangesQuery = Closed({
  from: TimeParam('Start (exclusive)'),
  to: Type.Optional(TimeParam('End (inclusive); absent = now')),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10_000, description: 'Most changes listed (default 1000)' }),
  ),
});
export type TopologyChangesQuery = Static<typeof TopologyChangesQuery>;

export const TopologyChangesSchema = Type.Object({
  from: DateTime,
  to: DateTime,
  fromVersion: Type.Integer({ description: 'The version in force at `from` (0: before the history)' }),
  toVersion: Type.Integer({ description: 'The version in force at `to`' }),
  historyFrom: DateTime,
  complete: Type.Boolean({ description: 'false when `from` is older than the history kept' }),
  total: Type.Integer({ description: 'Changes between the two instants, listed or not' }),
  versions: Type.Array(
    Type.Object({
      version: Type.Integer(),
      time: DateTime,
      source: Literals(['loaded', 'discovered']),
      summary: Type.String({ description: 'e.g. "1 link removed, 1 link moved"' }),
      changes: Type.Array(TopologyChangeSchema),
    }),
    { description: 'The versions recorded after `from` up to `to`, oldest first; changes cut at `limit`' },
  ),
});
export type TopologyChanges = Static<typeof TopologyChangesSchema>;

export const TopologyStatusSchema = Type.Object({
  live: Type.Boolean({ description: 'Whether the topology is re-discovered (FABSCOPE_FABRIC=infiniband)' }),
  intervalMs: Nullable(Type.Integer({ description: 'Discovery schedule (FABSCOPE_DISCOVER_INTERVAL_MS)' })),
  version: Type.Integer({ description: 'The newest topology version' }),
  loadedVersion: Type.Integer({ description: 'The version the API loaded and draws' }),
  discoveredAt: Nullable(DateTime),
  changed: Type.Boolean({ description: 'The newest version differs from the loaded one' }),
  summary: Type.String({ description: 'How: "1 link removed"; "no change"' }),
  lastError: Type.Optional(Type.String({ description: 'Why the last discovery failed' })),
  drift: Type.Object({
    configured: Type.Boolean({ description: 'FABSCOPE_EXPECTED_TOPOLOGY is set' }),
    findings: Type.Integer({ description: 'Findings held for the stability window' }),
  }),
});
export type TopologyStatus = Static<typeof TopologyStatusSchema>;

export const DriftQuery = Closed({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10_000, description: 'Most findings listed (default 100)' }),
  ),
  kind: Type.Optional(Literals(DRIFT_KINDS)),
});
export type DriftQuery = Static<typeof DriftQuery>;

export const DriftFindingSchema = Type.Object({
  kind: Literals(DRIFT_KINDS, {
    description:
      'miswired: a designed cable whose port is cabled elsewhere (subject the port; expected and actual the two cables)',
  }),
  subject: Type.String(),
  detail: Type.String(),
  expected: Nullable(TopologyCableSchema),
  actual: Nullable(TopologyCableSchema),
  firstSeen: DateTime,
  since: Type.String({ format: 'date-time', description: 'Start of its current (or last) stretch' }),
  lastSeen: DateTime,
  present: Type.Boolean({ description: 'Seen in the newest comparison' }),
  count: Type.Integer({ description: 'Times it appeared: more than 1 is a flapping cable, one finding' }),
  flapping: Type.Boolean(),
});
export type DriftFindingRecord = Static<typeof DriftFindingSchema>;

export const DriftSchema = Type.Object({
  configured: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'Why there is no drift to show' })),
  expected: Type.Optional(
    Type.Object({
      file: Type.String({ description: 'The golden file (FABSCOPE_EXPECTED_TOPOLOGY), base name' }),
      nodes: Type.Integer(),
      links: Type.Integer(),
    }),
  ),
  comparedWith: Type.Optional(
    Type.Object({
      source: Literals(['loaded', 'discovered']),
      version: Type.Integer(),
      time: DateTime,
    }),
  ),
  stableSeconds: Type.Number({
    description: 'A finding is reported once it has held this long (FABSCOPE_DRIFT_STABLE_SECONDS)',
  }),
  total: Type.Integer({ description: 'Findings reported (held for the window, or flapping), listed or not' }),
  pending: Type.Integer({ description: 'Findings seen but not yet held for the window' }),
  findings: Type.Array(DriftFindingSchema, { description: 'Links first, then nodes; cut at `limit`' }),
});
export type Drift = Static<typeof DriftSchema>;
