// The one contract of fabscope's HTTP interfaces: TypeBox schemas and their Static types for the
// API's /api/v1 (api.ts, time.ts) and the emulator's v1 (emulator.ts). Fastify routes validate with
// them, clients and the web take their types from them (types only: the web still talks HTTP).
// Imports nothing of fabscope.
export * from './alarms.ts';
export * from './analysis.ts';
export * from './api.ts';
export * from './emulator.ts';
export * from './errors.ts';
export * from './jobs.ts';
export * from './names.ts';
export * from './paging.ts';
export * from './pattern-meanings.ts';
export * from './stream.ts';
export * from './time.ts';
export * from './topology-live.ts';
