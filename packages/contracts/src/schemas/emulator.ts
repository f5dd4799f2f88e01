import { type Static, Type } from '@sinclair/typebox';
import { FABRIC_TYPES, NODE_TYPES } from '../names.ts';
import { Closed, Literals, Nullable } from './common.ts';

// The emulator's HTTP interface, v1; the API passes its flows, faults and adaptive-routing state through.

export const FabricTypeSchema = Literals(FABRIC_TYPES);
export const NodeTypeSchema = Literals(NODE_TYPES);

/** `GET /v1/health`. */
export const EmulatorHealthSchema = Type.Object({
  status: Type.Literal('ok'),
  fabric: Type.String(),
  fabricType: FabricTypeSchema,
  timeMs: Type.Number({ description: 'The emulator clock (Unix ms in real-time mode)' }),
});
export type EmulatorHealth = Static<typeof EmulatorHealthSchema>;

/** `GET /v1/routing`: what the fabric manager's last sweep routed with. */
export const RoutingStateSchema = Type.Object({
  sweep: Type.Integer({
    minimum: 0,
    description: 'Sweeps since the emulator started; 0 while the initial tables stand',
  }),
  engine: Type.String({
    description: 'Engine of the current tables (`minhop-fallback` when the engine gave up)',
  }),
  downLinks: Type.Array(Type.String(), { description: 'Links `a/port--b/port` down at the last sweep' }),
  sweptAtMs: Nullable(Type.Number(), { description: 'Emulator clock at the last sweep' }),
});
export type RoutingState = Static<typeof RoutingStateSchema>;

/** One host's or router's live load (`GET /v1/hosts`). */
export const HostLoadSchema = Type.Object({
  name: Type.String(),
  type: Literals(['host', 'router']),
  cpuUtilization: Type.Number({ minimum: 0, maximum: 1 }),
  memoryUtilization: Type.Number({ minimum: 0, maximum: 1 }),
  forwardedBytesPerSecond: Type.Number({ description: 'Payload a router forwards between networks' }),
  transmitBytesPerSecond: Type.Number(),
  receiveBytesPerSecond: Type.Number(),
});
export type HostLoad = Static<typeof HostLoadSchema>;

/** Which flows `GET /v1/flows` answers with; every field given must match. */
export const FlowFilterSchema = Closed({
  from: Type.Optional(Type.String({ minLength: 1 })),
  to: Type.Optional(Type.String({ minLength: 1 })),
  job: Type.Optional(Type.String({ minLength: 1 })),
  link: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'A link direction `node/port->node/port` the flow crosses now',
    }),
  ),
});
export type FlowFilter = Static<typeof FlowFilterSchema>;

/** A job as the emulator knows it: the flows sharing a job name (`GET /v1/jobs`). */
export const EmulatorJobSchema = Type.Object({
  name: Type.String(),
  nodes: Type.Array(Type.String(), { description: 'Hosts its flows run between, in fabric order' }),
  state: Literals(['running', 'pending'], {
    description: 'running while any of its flows runs, else pending',
  }),
  startMs: Type.Number({ description: 'Start of its first flow (emulator clock)' }),
  flows: Type.Integer({ minimum: 0 }),
});
export type EmulatorJob = Static<typeof EmulatorJobSchema>;
