import { type ErrorRateFault, FAULT_TYPES, type FaultType, faultKeys } from '@fabscope/contracts';
import { namesCable } from '@fabscope/contracts/names';
import { channelFrom, type Fabric, type FabricLink, type FabricNode } from '@fabscope/topology';
import { TrafficError } from '../traffic/request.ts';
import { parseDuration, QuantityError } from '../units.ts';

/** A fault resolved against the fabric. */
export type ResolvedFault =
  | { type: 'link-down' | 'link-up'; link: FabricLink }
  | { type: 'flap'; link: FabricLink; periodMs: number; downMs: number }
  | {
      type: 'symbol-errors' | ErrorRateFault;
      link: FabricLink;
      ports: number[];
      rate: number;
      target: string;
    }
  | { type: 'link-quality'; link: FabricLink; ports: number[]; quality: number; target: string }
  | { type: 'link-width-downgrade'; link: FabricLink; ports: number[]; lanes: number; target: string }
  | { type: 'switch-down' | 'switch-up' | 'restart'; node: FabricNode }
  | { type: 'clear-counters'; node: FabricNode; ports: number[]; target: string };

/** Checks a fault request; throws TrafficError with the reason. */
export function resolveFault(fabric: Fabric, request: unknown): ResolvedFault {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new TrafficError('a fault must be a JSON object {type, …}');
  }
  const raw = request as Record<string, unknown>;
  const type = raw.type as FaultType;
  if (!FAULT_TYPES.includes(type)) {
    throw new TrafficError(
      `unknown fault type ${JSON.stringify(raw.type)}; known: ${FAULT_TYPES.map((t) => `"${t}"`).join(', ')}`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'type' && !faultKeys(type).includes(key))
      throw new TrafficError(`unknown field "${key}" for fault "${type}"`);
  }
  const node = (): FabricNode => {
    if (typeof raw.node !== 'string') throw new TrafficError(`fault "${type}" needs node (a node name)`);
    const found = fabric.nodeByName.get(raw.node);
    if (!found) throw new TrafficError(`unknown node "${raw.node}"`);
    return found;
  };
  const port = (n: FabricNode): number => {
    const p = raw.port;
    if (typeof p !== 'number' || !Number.isInteger(p)) throw new TrafficError('port must be a port number');
    const out = channelFrom(fabric, n, p);
    if (out < 0) throw new TrafficError(`"${n.name}" port ${p} is not cabled`);
    return out;
  };
  const link = (): FabricLink => {
    if (raw.link !== undefined) {
      if (raw.node !== undefined || raw.port !== undefined)
        throw new TrafficError('give link or node and port, not both');
      const found = fabric.links.find((l) => namesCable(l.id, String(raw.link)));
      if (!found)
        throw new TrafficError(
          `unknown link ${JSON.stringify(raw.link)} (ids look like "edge1/4--core2/1", the end nearer the hosts first)`,
        );
      return found;
    }
    if (raw.node === undefined) throw new TrafficError(`fault "${type}" needs link, or node and port`);
    return fabric.links[port(node()) >> 1] as FabricLink;
  };
  const duration = (name: 'period' | 'downFor', fallback: number): number => {
    if (raw[name] === undefined) return fallback;
    try {
      return parseDuration(name, raw[name]) * 1000;
    } catch (error) {
      if (error instanceof QuantityError) throw new TrafficError(error.message);
      throw error;
    }
  };

  /** One end (node + port) or both ends of a link, as output channels. */
  const ends = (): { link: FabricLink; ports: number[]; target: string } => {
    if (raw.link === undefined && raw.node !== undefined) {
      const n = node();
      const out = port(n);
      return { link: fabric.links[out >> 1] as FabricLink, ports: [out], target: `${n.name}/${raw.port}` };
    }
    const l = link();
    return { link: l, ports: [l.index * 2, l.index * 2 + 1], target: l.id };
  };
  const integer = (name: 'quality' | 'lanes', max: number, what: string): number => {
    const v = raw[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw new TrafficError(`${name} must be an integer 0..${max} (${what}), got ${JSON.stringify(v)}`);
    return v;
  };

  switch (type) {
    case 'link-quality':
      return { type, quality: integer('quality', 5, '5 excellent, 0 down'), ...ends() };
    case 'link-width-downgrade':
      return { type, lanes: integer('lanes', 3, 'lanes down of 4'), ...ends() };
    case 'link-down':
    case 'link-up':
      return { type, link: link() };
    case 'flap': {
      const l = link();
      const periodMs = duration('period', 2000);
      const downMs = duration('downFor', periodMs / 2);
      if (!(periodMs >= 10)) throw new TrafficError('period must be at least 10 ms');
      if (!(downMs > 0 && downMs < periodMs))
        throw new TrafficError('downFor must be > 0 and shorter than period');
      return { type, link: l, periodMs, downMs };
    }
    case 'switch-down':
    case 'switch-up': {
      const n = node();
      if (n.type !== 'switch') throw new TrafficError(`"${n.name}" is a ${n.type}, not a switch`);
      return { type, node: n };
    }
    case 'restart':
      return { type, node: node() };
    case 'clear-counters': {
      const n = node();
      if (raw.port !== undefined) return { type, node: n, ports: [port(n)], target: `${n.name}/${raw.port}` };
      const ports: number[] = [];
      for (const p of n.ports) if (p && p.link >= 0) ports.push(channelFrom(fabric, n, p.number));
      return { type, node: n, ports, target: n.name };
    }
    default: {
      // symbol-errors and the error-rate faults
      const rate = raw.rate;
      if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0) {
        const errors = type === 'symbol-errors' ? 'symbol errors' : 'errors';
        throw new TrafficError(
          `rate must be a number of ${errors} per second ≥ 0, got ${JSON.stringify(rate)}`,
        );
      }
      return { type, ...ends(), rate };
    }
  }
}
