import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { PortOptics } from '../../routes/port/port-optics.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ports' transceiver readings from the live source (SNMP); null: no source reads them. */
    readonly portOptics: PortOptics | null;
  }
}

/** Decorates `portOptics` with the reader handed in (serve-snmp's source), else null. */
export const portOpticsPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    app.decorate(
      'portOptics',
      (source.state ? source.state.portOptics : source.build.tools?.portOptics) ?? null,
    );
  },
  { name: 'port-optics', dependencies: [] },
);
