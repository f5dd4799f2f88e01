import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers and compression for every answer, the API and the dashboard alike. The CSP is
 * one the built dashboard satisfies: scripts and styles from its own origin only (no inline
 * script: Vite emits module files), data: images for canvas exports, fetch/EventSource to itself.
 * No upgrade-insecure-requests or HSTS: the API is often reached over plain HTTP on a cluster's
 * management network, where those would break the page.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
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
  // Server-sent events are written to the raw socket (hijacked): routes/stream.ts deflates them itself,
  // once per tick for every client (lib/sse-deflate.ts).
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
  });
}
