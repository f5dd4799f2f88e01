import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** Security headers with a CSP the built dashboard satisfies; no HSTS, as management networks are often plain HTTP. */
export const helmetPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      strictTransportSecurity: false,
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'helmet-policy' },
);
