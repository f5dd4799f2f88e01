import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * Security headers for every answer, the API and the dashboard alike. The CSP is
 * one the built dashboard satisfies: scripts and styles from its own origin only (no inline
 * script: Vite emits module files), data: images for canvas exports, fetch/EventSource to itself.
 * No upgrade-insecure-requests or HSTS: the API is often reached over plain HTTP on a cluster's
 * management network, where those would break the page.
 */
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
