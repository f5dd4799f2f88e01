import { buildScenario, type Fabric, type ForwardingTables, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.ts';
import type { EmulatorClient } from '../src/emulator-client.ts';
import { LinkIndex } from '../src/lib/utilization.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import type { MetricsStore } from '../src/store/types.ts';

export interface TestAppOptions extends Partial<Omit<AppOptions, 'ctx'>> {
  fabric?: Fabric;
  tables?: ForwardingTables;
  /** Default: an embedded store whose collector cannot be reached (no data: everything stale). */
  store?: MetricsStore;
  emulator?: EmulatorClient | null;
  intervalMs?: number;
  /** Default: a sampler of `store` (not started: tests sample when they choose). */
  sampler?: Sampler;
}

/** The app in process, as the server builds it, on the ar-demo fabric unless told otherwise. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const fabric = options.fabric ?? buildScenario('ar-demo');
  const store = options.store ?? new EmbeddedStore({ targets: ['http://127.0.0.1:9/metrics'] });
  const linkIndex = new LinkIndex(fabric);
  const { fabric: _f, store: _s, tables, emulator = null, intervalMs, sampler, ...appOptions } = options;
  return buildApp({
    ctx: {
      fabric,
      tables: tables ?? fatTreeRouting(fabric),
      linkIndex,
      store,
      sampler: sampler ?? new Sampler(store, linkIndex, intervalMs),
      emulator,
    },
    listenHost: '127.0.0.1',
    ...appOptions,
  });
}
