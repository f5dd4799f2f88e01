import { setImmediate as yieldToEvents } from 'node:timers/promises';
import {
  type Fabric,
  type ForwardingTables,
  type StaticRouteLoad,
  staticRouteLoadSteps,
} from '@fabscope/topology';

export interface ComputedLoad {
  load: StaticRouteLoad;
  computeMs: number;
}

/** One count per set of tables: a re-route replaces the tables object, and with it the count. */
const cache = new WeakMap<ForwardingTables, Promise<ComputedLoad>>();

/** The static route load of the tables in use, counted once per set of tables, yielding every 512 destinations. */
export function staticLoadOf(fabric: Fabric, tables: ForwardingTables): Promise<ComputedLoad> {
  let pending = cache.get(tables);
  if (!pending) {
    pending = count(fabric, tables);
    cache.set(tables, pending);
    pending.catch(() => cache.delete(tables));
  }
  return pending;
}

async function count(fabric: Fabric, tables: ForwardingTables): Promise<ComputedLoad> {
  let busyMs = 0;
  const steps = staticRouteLoadSteps(fabric, tables, 512);
  for (;;) {
    const stepStarted = performance.now();
    const next = steps.next();
    busyMs += performance.now() - stepStarted;
    if (next.done) return { load: next.value, computeMs: Math.round(busyMs * 10) / 10 };
    await yieldToEvents();
  }
}
