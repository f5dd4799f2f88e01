import { ErrorReply, FindQuery, FindReplySchema } from '@fabscope/contracts';
import { findIndex, findInFabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Find's type-ahead: the fabric's index is built once per topology version (topology's findIndex). */
export const findRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Built after start rather than on the first keystroke (~90 + 130 ms at 27,648 hosts: docs/scaling.md).
  app.addHook('onReady', async () => {
    setImmediate(() => findIndex(app.fabric.fabric).ports());
  });
  app.get(
    '/find',
    {
      schema: {
        summary:
          'Nodes and ports by part of a name, NodeDescription, GUID, LID or node/port, any case: exact, then prefix, then substring matches, a page of them and how many matched',
        querystring: FindQuery,
        response: { 200: FindReplySchema, 400: ErrorReply },
      },
    },
    async (request) => {
      const { q, limit = 20 } = request.query;
      return { query: q, ...findInFabric(app.fabric.fabric, q, limit) };
    },
  );
};
