// The one contract of fabscope's HTTP interfaces: TypeBox schemas and their Static types for the
// API's /api/v1 and the emulator's v1, one file per resource under schemas/, and the plain
// constants every process may import without TypeBox (names, units, metrics, media types,
// paging, the emulator's /v1/ports), each also a subpath of its own. Imports nothing of fabscope.

export * from './limits.ts';
export * from './media-types.ts';
export * from './metrics.ts';
export * from './names.ts';
export * from './ports.ts';
export * from './schemas/adaptive-routing.ts';
export * from './schemas/alarms.ts';
export * from './schemas/analysis.ts';
export * from './schemas/emulator.ts';
export * from './schemas/error-reply.ts';
export * from './schemas/events.ts';
export * from './schemas/faults.ts';
export * from './schemas/health.ts';
export * from './schemas/history.ts';
export * from './schemas/jobs.ts';
export * from './schemas/links.ts';
export * from './schemas/paging.ts';
export * from './schemas/pattern-meanings.ts';
export * from './schemas/routes.ts';
export * from './schemas/stream.ts';
export * from './schemas/summary.ts';
export * from './schemas/time.ts';
export * from './schemas/topology.ts';
export * from './schemas/topology-live.ts';
export * from './schemas/traffic.ts';
