import { ErrorReply } from '@fabscope/contracts';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** The OpenAPI document of every route (served at `/api/v1/openapi.json`), and the shared error schema. */
export const swaggerPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'fabscope API',
          version: '1',
          description:
            'Per-link utilization (fraction 0..1), rankings, routes and adaptive-routing control for HPC fabrics. ' +
            'Mutating requests need `Authorization: Bearer <FABSCOPE_API_TOKEN>` when the API listens beyond loopback, ' +
            'and a loopback Host (or one in FABSCOPE_ALLOWED_HOSTS) when it listens on loopback.',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
    });
    app.addSchema(ErrorReply);
  },
  { name: 'swagger-document' },
);
