import type { FastifyInstance } from 'fastify';

/** How long the last read of each list took (ms), per app (its sampler: one per app). */
const readCosts = new WeakMap<FastifyInstance['sampler'], Map<string, number>>();

/** The `reuse` key of `route`'s first pages: a list is re-read at most once per its last read's cost (≤ one interval). */
export function costKey(app: Pick<FastifyInstance, 'sampler'>, route: string): string {
  const cost = readCosts.get(app.sampler)?.get(route) ?? 1;
  return `read ${Math.floor(Date.now() / Math.max(1, Math.min(cost, app.sampler.intervalMs)))}`;
}

/** Runs `read` and keeps how long it took, for costKey. */
export async function timedRead<T>(
  app: Pick<FastifyInstance, 'sampler'>,
  route: string,
  read: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await read();
  } finally {
    const costs = readCosts.get(app.sampler) ?? new Map<string, number>();
    costs.set(route, performance.now() - started);
    readCosts.set(app.sampler, costs);
  }
}
