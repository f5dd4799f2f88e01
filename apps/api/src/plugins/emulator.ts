import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { EmulatorClient } from '../emulator-client.ts';
import type { FlowPaths } from '../flow-paths.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The emulator the API drives over HTTP (traffic, faults); null on a real fabric. */
    readonly emulator: EmulatorClient | null;
    /** The emulator's flows by their ends, read once per tick for `/route`; null: asked per route. */
    readonly flowPaths: FlowPaths | null;
  }
}

/** Decorates `emulator` and `flowPaths` (the index of that emulator's flows, when there is one). */
export const emulatorPlugin = fastifyPlugin(
  async (
    app: FastifyInstance,
    options: { emulator: EmulatorClient | null; flowPaths?: FlowPaths | undefined },
  ) => {
    app.decorate('emulator', options.emulator);
    app.decorate('flowPaths', options.flowPaths ?? null);
  },
  { name: 'emulator', dependencies: [] },
);
