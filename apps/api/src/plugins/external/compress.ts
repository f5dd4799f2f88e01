import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** Compression of every answer over 1 KiB; the hijacked event stream deflates itself (routes/stream/). */
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
