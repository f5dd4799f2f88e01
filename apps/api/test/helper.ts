import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, type Fabric, type ForwardingTables, fatTreeRouting } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.ts';
import { EmulatorClient } from '../src/emulator-client.ts';
import type { EventLog } from '../src/events/event-log.ts';
import type { JobSource } from '../src/jobs/job.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import type { PortOptics } from '../src/routes/port/port-optics.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import type { MetricsStore } from '../src/store/types.ts';

export interface TestAppOptions extends Partial<Omit<AppOptions, 'state' | 'build'>> {
  fabric?: Fabric;
  tables?: ForwardingTables;
  /** Default: an embedded store whose collector cannot be reached (no data: everything stale). */
  store?: MetricsStore;
  emulator?: EmulatorClient | null;
  /** Default: none (the emulator's traffic when there is an emulator). */
  jobs?: JobSource;
  intervalMs?: number;
  /** Default: a sampler of `store` (not started: tests sample when they choose). */
  sampler?: Sampler;
  /** The index the sampler and the store's history use, when the test built them itself. */
  linkIndex?: LinkIndex;
  /** Default: the store's own events only. */
  events?: EventLog;
  /** Default: none (no source reads the ports' optics). */
  portOptics?: PortOptics;
}

/** The app in process, as the server builds it, on the ar-demo fabric unless told otherwise. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const fabric = options.fabric ?? buildScenario('ar-demo');
  const store = options.store ?? new EmbeddedStore({ targets: ['http://127.0.0.1:9/metrics'] });
  const linkIndex = options.linkIndex ?? new LinkIndex(fabric);
  const {
    fabric: _f,
    store: _s,
    linkIndex: _l,
    events,
    tables,
    emulator = null,
    intervalMs,
    sampler,
    jobs,
    portOptics,
    ...appOptions
  } = options;
  return buildApp({
    state: {
      fabric: { fabric, tables: tables ?? fatTreeRouting(fabric), linkIndex },
      store,
      sampler: sampler ?? new Sampler(store, linkIndex, intervalMs),
      emulator,
      ...(jobs ? { jobs } : {}),
      ...(events ? { events } : {}),
      ...(portOptics ? { portOptics } : {}),
    },
    listenHost: '127.0.0.1',
    ...appOptions,
  });
}

/** The app in front of a real emulator of `fabric`, ticking every 20 ms, as the API drives one. */
export async function buildAppWithEmulator(
  fabric: Fabric,
): Promise<{ app: FastifyInstance; emulatorUrl: string; stop: () => Promise<void> }> {
  const server = await startEmulatorServer(
    createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
    { tickMs: 20, fromDateNow: true },
  );
  const app = await buildTestApp({ fabric, emulator: new EmulatorClient(server.url) });
  return {
    app,
    emulatorUrl: server.url,
    stop: async () => {
      await app.close();
      await server.close();
    },
  };
}
