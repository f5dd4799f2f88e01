import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * Compression of every answer over 1 KiB. Server-sent events are written to the raw socket
 * (hijacked): routes/stream/ deflates them itself, once per tick for every client.
 */
export const compressPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    await app.register(fastifyCompress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip', 'deflate'],
    });
  },
  { name: 'compress-policy' },
);
