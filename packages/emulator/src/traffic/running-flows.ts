import { channelOf, type Fabric, type FabricNode, type FabricType } from '@fabscope/topology';
import type { LoadedFlow } from '../channel-load.ts';
import type { RoutedFlow } from '../routing/adaptive-routing.ts';
import type { FlowInfo, FlowSpec } from './request.ts';
import { flowEfficiency } from './transport.ts';

/** A flow the emulator carries: its request, its routes (static and current) and its rates. */
export interface Flow extends RoutedFlow, LoadedFlow {
  id: string;
  /** The job it belongs to: the spec's, or the name generated for its request. */
  job: string;
  from: FabricNode;
  dest: FabricNode;
  spec: FlowSpec;
  path: Int32Array;
  wireLimit: number;
  /** The path the forwarding tables give it; `path` differs while adaptive routing moved it. */
  staticPath: Int32Array;
  startMs: number;
  endMs: number;
  running: boolean;
}

const IP_MSS: Readonly<Record<FabricType, number>> = { ethernet: 8948, omnipath: 10184, infiniband: 4040 };

/** The flow of a spec on `path`, starting `spec.startS` after `nowMs`. */
export function newFlow(
  id: string,
  job: string,
  spec: FlowSpec,
  path: Int32Array,
  context: { nowMs: number; senderBytesPerSecond: number; destType: FabricType; mtu: number },
): Flow {
  const efficiency = flowEfficiency(
    spec.transport,
    spec.messageBytes,
    (context.senderBytesPerSecond * 8) / 1e9,
    context.destType,
  );
  const m = spec.messageBytes;
  const startMs = context.nowMs + spec.startS * 1000;
  const mss = IP_MSS[context.destType];
  return {
    id,
    job,
    from: spec.from,
    dest: spec.to,
    spec,
    efficiency,
    wireLimit: spec.limit / efficiency,
    payload: 0,
    rate: 0,
    staticPath: path,
    path,
    startMs,
    endMs: startMs + spec.durationS * 1000,
    running: spec.startS === 0,
    roce: spec.transport === 'rdma' && context.destType === 'ethernet',
    victimOf: -1,
    ecnMarked: false,
    extraPktsPerByte: m === null ? 0 : Math.ceil(m / context.mtu) / m - 1 / context.mtu,
    ipPktsPerByte: spec.transport === 'ip' ? 1 / Math.min(mss, m ?? mss) : 0,
  };
}

/** A flow as `GET /v1/flows` shows it. */
export function flowInfo(fabric: Fabric, flow: Flow): FlowInfo {
  return {
    id: flow.id,
    from: flow.from.name,
    to: flow.dest.name,
    bytesPerSecond: flow.payload,
    path: Array.from(flow.path, (c) => channelOf(fabric, c).id),
    pattern: flow.spec.pattern,
    job: flow.job,
    transport: flow.spec.transport,
    messageBytes: flow.spec.messageBytes,
    state: flow.running ? 'running' : 'pending',
    startMs: flow.startMs,
    endMs: Number.isFinite(flow.endMs) ? flow.endMs : null,
    ...(flow.running && flow.ecnMarked ? { ecnMarked: true } : {}),
    ...(flow.running && flow.victimOf >= 0 ? { victimOf: channelOf(fabric, flow.victimOf).id } : {}),
  };
}
