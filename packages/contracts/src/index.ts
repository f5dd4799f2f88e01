// The contract of fabscope's HTTP interfaces: TypeBox schemas (one file per resource) and the
// plain constants, each also a subpath of its own so a process can import it without TypeBox.

export * from './counter-names.ts';
export * from './limits.ts';
export * from './media-types.ts';
export * from './metrics.ts';
export * from './names.ts';
export * from './optics.ts';
export * from './ports.ts';
export * from './schemas/adaptive-routing.ts';
export * from './schemas/alarms.ts';
export * from './schemas/analysis.ts';
export * from './schemas/emulator.ts';
export * from './schemas/error-reply.ts';
export * from './schemas/events.ts';
export * from './schemas/faults.ts';
export * from './schemas/find.ts';
export * from './schemas/health.ts';
export * from './schemas/history.ts';
export * from './schemas/job-report.ts';
export * from './schemas/jobs.ts';
export * from './schemas/links.ts';
export * from './schemas/optics.ts';
export * from './schemas/paging.ts';
export * from './schemas/pattern-meanings.ts';
export * from './schemas/routes.ts';
export * from './schemas/stream.ts';
export * from './schemas/summary.ts';
export * from './schemas/time.ts';
export * from './schemas/topology.ts';
export * from './schemas/topology-live.ts';
export * from './schemas/traffic.ts';
