import { type Static, Type } from '@sinclair/typebox';
import { Literals, Nullable } from './common.ts';

/** `GET /health`: how fresh the data is and what the API runs on. */
export const HealthSchema = Type.Object({
  status: Literals(['ok', 'stale', 'degraded'], {
    description:
      'ok: newest sample at most staleAfterSeconds old; stale: older, or none yet; degraded: the store fails',
  }),
  store: Literals(['embedded', 'prometheus']),
  liveSource: Type.Optional(
    Type.Literal('collectors', {
      description:
        "Present when the live view is read from the collectors beside the TSDB (FABSCOPE_LIVE_SOURCE=collectors); history, events and alerts are still the TSDB's",
    }),
  ),
  lastSampleAgeSeconds: Nullable(
    Type.Number({ description: 'Age of the newest counter sample; null before any' }),
  ),
  intervalMs: Type.Integer({ description: 'Sampling tick: a stream message is due this often' }),
  staleAfterSeconds: Type.Number({ description: 'Data older than this is stale (the one staleness policy)' }),
  topologyVersion: Type.Optional(
    Type.Integer({
      description:
        'Version of the topology the API draws and measures (absent: as loaded, 0): it changes when the API starts drawing a re-discovered fabric — fetch /topology again',
    }),
  ),
  error: Type.Optional(
    Type.String({
      description: 'What is wrong; internal addresses shown only to this machine or with the token',
    }),
  ),
  eventLoopDelayMs: Type.Optional(
    Type.Number({
      description:
        "The API's event-loop delay: mean over the last second, in ms (answers wait about this long to start)",
    }),
  ),
  eventLoopUtilization: Type.Optional(
    Type.Number({ description: 'Share 0..1 of the last second the event loop was busy' }),
  ),
  topology: Type.Optional(
    Type.Object(
      {
        changed: Type.Boolean({
          description: 'The fabric as last discovered differs from the one the API loaded',
        }),
        version: Type.Integer({ description: 'Topology version now (GET /topology/changes)' }),
        discoveredAt: Nullable(Type.String({ format: 'date-time' })),
        summary: Type.String({
          description: 'For people: "topology changed: 1 link removed"',
        }),
      },
      { description: 'Live discovery of the topology (FABSCOPE_FABRIC=infiniband), when it runs' },
    ),
  ),
  subnetManager: Type.Optional(
    Type.Object(
      {
        state: Literals(['present', 'absent', 'unknown'], {
          description:
            'present: an SM answers SubnGet(SMInfo) and its tables are readable; absent: none answers, or its tables cannot be read',
        }),
        since: Nullable(Type.String({ format: 'date-time' })),
        detail: Type.String({ description: "What the SM said (sminfo's line), or why it counts as absent" }),
      },
      {
        description:
          'The subnet manager, asked every few seconds (FABSCOPE_FABRIC=infiniband with its tables)',
      },
    ),
  ),
  supervisor: Type.Optional(
    Type.Object(
      {
        restarts: Type.Integer({ description: 'Times the supervised Prometheus was restarted' }),
        running: Type.Boolean(),
        lastExit: Type.Optional(Type.String({ description: 'How it last stopped, e.g. "signal SIGKILL"' })),
      },
      { description: 'The Prometheus the demo runs and restarts (demo --prometheus only)' },
    ),
  ),
});
export type Health = Static<typeof HealthSchema>;
export type StoreKind = Health['store'];
