import type { Fabric } from '../model/model.ts';
import { RoutingError } from './errors.ts';
import { fatTreeRouting } from './fattree.ts';
import { minHopRouting } from './minhop.ts';
import type { ForwardingTables } from './tables.ts';

export type RoutingEngineName = 'minhop' | 'fattree';
export const ROUTING_ENGINES: readonly RoutingEngineName[] = ['minhop', 'fattree'];

/** Forwarding tables from the named engine; `auto` is fattree falling back to minhop, as `ftree,minhop`. */
export function buildForwardingTables(
  fabric: Fabric,
  engine: RoutingEngineName | 'auto' = 'auto',
): ForwardingTables {
  switch (engine) {
    case 'minhop':
      return minHopRouting(fabric);
    case 'fattree':
      return fatTreeRouting(fabric);
    case 'auto':
      try {
        return fatTreeRouting(fabric);
      } catch (error) {
        if (error instanceof RoutingError) return minHopRouting(fabric);
        throw error;
      }
    default:
      throw new RoutingError(`unknown routing engine "${String(engine)}"; known: minhop, fattree`);
  }
}

export function isRoutingEngine(name: string): name is RoutingEngineName | 'auto' {
  return name === 'auto' || (ROUTING_ENGINES as readonly string[]).includes(name);
}

/** The engine asked for, else the one the fabric's scenario names, else `auto`. */
export function chooseRoutingEngine(
  requested: RoutingEngineName | 'auto' | undefined,
  scenarioEngine?: RoutingEngineName,
): RoutingEngineName | 'auto' {
  if (requested !== undefined && requested !== 'auto') return requested;
  return scenarioEngine ?? 'auto';
}

/** An engine as a function of the fabric: what the emulator's fabric manager reruns at each sweep. */
export function routingFor(engine: RoutingEngineName | 'auto'): (fabric: Fabric) => ForwardingTables {
  return (fabric) => buildForwardingTables(fabric, engine);
}
