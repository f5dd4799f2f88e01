import { TRAFFIC_FIELDS_NEEDED, type TrafficItem, type TrafficRequest } from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';
import { InvalidRequestError, NotFoundError } from './errors.ts';

/** Why a request is refused: NotFoundError when it names what the fabric does not have. */
type Refusal = NotFoundError | InvalidRequestError;

/** Checks a traffic request against the topology before the emulator gets it; the first problem, or null. */
export function checkTraffic(fabric: Fabric, request: TrafficRequest): Refusal | null {
  const items = 'items' in request ? request.items : [request];
  for (const [i, item] of items.entries()) {
    const problem = checkItem(fabric, item);
    if (!problem) continue;
    if (items.length === 1) return problem;
    const message = `items[${i}]: ${problem.message}`;
    return problem instanceof NotFoundError ? new NotFoundError(message) : new InvalidRequestError(message);
  }
  return null;
}

const refuse = (message: string): Refusal => new InvalidRequestError(message);

function checkItem(fabric: Fabric, item: TrafficItem): Refusal | null {
  for (const field of TRAFFIC_FIELDS_NEEDED[item.pattern]) {
    if (item[field] === undefined) return refuse(`pattern "${item.pattern}" needs ${field}`);
  }
  if (item.pattern === 'iperf' && typeof item.from !== 'string')
    return refuse('iperf: from must be one host name');
  const names: string[] = [];
  for (const [a, b] of item.pairs ?? []) names.push(a, b);
  if (item.to !== undefined) names.push(item.to);
  if (item.from !== undefined) names.push(...(Array.isArray(item.from) ? item.from : [item.from]));
  if (item.server !== undefined) names.push(item.server);
  names.push(...(item.clients ?? []), ...(item.hosts ?? []));
  // Names first: a name the fabric does not have is 404, whatever else is wrong.
  for (const name of names)
    if (!fabric.nodeByName.has(name)) return new NotFoundError(`unknown node "${name}"`);
  for (const name of names) {
    if (fabric.nodeByName.get(name)?.type === 'switch')
      return refuse(`"${name}" is a switch; flows run between hosts`);
  }
  for (const [a, b] of item.pairs ?? []) if (a === b) return refuse(`host "${a}" is paired with itself`);
  if (item.pattern === 'iperf' && item.from === item.to)
    return refuse(`host "${item.to}" is paired with itself`);
  return null;
}
