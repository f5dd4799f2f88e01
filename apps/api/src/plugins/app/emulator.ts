import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type EmulatorClient, emulatorTimeoutMs } from '../../emulator-client.ts';
import { NoEmulatorError } from '../../errors.ts';
import type { EventLog } from '../../events/event-log.ts';
import { RecordingEmulatorClient } from '../../events/recording-emulator.ts';
import { FlowPaths } from '../../flow-paths.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The emulator the API drives over HTTP (traffic, faults); null on a real fabric. */
    readonly emulator: EmulatorClient | null;
    /** The emulator's flows by their ends, read once per tick for `/route`; null: asked per route. */
    readonly flowPaths: FlowPaths | null;
  }
}

/** The emulator FABSCOPE_EMULATOR_URL names, its changes recorded as events; null without one. */
function emulatorFrom(app: FastifyInstance, source: AppSource): EmulatorClient | null {
  if (source.state) return source.state.emulator;
  const { config, fabric } = source.build;
  if (!config.emulatorUrl) return null;
  const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
  const timeoutMs = config.emulatorTimeoutMs ?? emulatorTimeoutMs(hosts);
  return new RecordingEmulatorClient(config.emulatorUrl, timeoutMs, config.apiToken, app.events as EventLog);
}

/** Decorates `emulator` and `flowPaths` (the index of that emulator's flows, when there is one). */
export const emulatorPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    const emulator = emulatorFrom(app, source);
    app.decorate('emulator', emulator);
    if (source.state) {
      app.decorate('flowPaths', source.state.flowPaths ?? null);
      return;
    }
    const flowPaths = emulator ? new FlowPaths(emulator, app.sampler) : null;
    app.decorate('flowPaths', flowPaths);
    if (flowPaths) app.addHook('preClose', async () => flowPaths.stop());
  },
  { name: 'emulator', dependencies: ['events', 'store'] },
);

/** The attached emulator; NoEmulatorError (409) on an API without one. */
export function emulatorOf(app: Pick<FastifyInstance, 'emulator'>): EmulatorClient {
  if (!app.emulator) throw new NoEmulatorError();
  return app.emulator;
}
