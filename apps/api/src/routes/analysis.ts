import { analyzeContention, PatternError, parsePattern } from '@fabscope/topology';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { ApiContext } from '../context.ts';
import { sendError } from '../http/errors.ts';
import { ErrorReply } from '../schemas.ts';

export const AnalysisQuery = Type.Object(
  {
    pattern: Type.String({
      minLength: 1,
      description:
        'pairs:A-B,C-D (or A->B) · shift:K · permutation[:SEED] · all-to-all · incast:HOST · bisection',
    }),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'Most entries per list (links, collisions, flows); default 1000',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AnalysisQuery = Static<typeof AnalysisQuery>;

const Pair = Type.Tuple([Type.String(), Type.String()]);

export const AnalysisSchema = Type.Object({
  pattern: Type.String(),
  engine: Type.String({ description: 'Routing engine of the forwarding tables analysed' }),
  flowCount: Type.Integer(),
  routedCount: Type.Integer(),
  maxLinkLoad: Type.Integer({ description: 'Most flows on one link direction' }),
  maxIslLoad: Type.Integer({ description: 'Most flows on one ISL direction' }),
  aggregateGbps: Type.Number({ description: 'Sum of the expected flow rates' }),
  minFlowGbps: Type.Number(),
  links: Type.Array(
    Type.Object({
      link: Type.String({ description: 'Link direction `node/port->node/port`' }),
      kind: Type.String(),
      flows: Type.Integer(),
      capacityGbps: Type.Number(),
      usedGbps: Type.Number(),
    }),
    { description: 'Loaded link directions, most flows first' },
  ),
  collisions: Type.Array(Type.Object({ link: Type.String(), pairs: Type.Array(Pair) }), {
    description: 'ISL directions shared by two or more flows',
  }),
  flows: Type.Array(
    Type.Object({ from: Type.String(), to: Type.String(), rateGbps: Type.Number(), hops: Type.Integer() }),
    { description: 'Expected rate of each flow under static routing, max-min fair' },
  ),
  unroutable: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), reason: Type.String() })),
  truncated: Type.Boolean({ description: 'true when a list was cut to `limit` entries' }),
});

/** Contention analysis of a traffic pattern on the fabric's static routes (what the UI shows before a job runs). */
export const analysisRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get<{ Querystring: AnalysisQuery }>(
    '/analysis',
    {
      schema: {
        summary: 'Flows of a traffic pattern sharing links under static routing, and their expected rates',
        querystring: AnalysisQuery,
        response: { 200: AnalysisSchema, 400: ErrorReply },
      },
    },
    async (request, reply) => {
      const { pattern: text, limit = 1000 } = request.query;
      let result: ReturnType<typeof analyzeContention>;
      try {
        result = analyzeContention(ctx.fabric, ctx.tables, parsePattern(text, ctx.fabric));
      } catch (error) {
        if (error instanceof PatternError) {
          return sendError(reply, 400, `pattern: ${error.message}`);
        }
        throw error;
      }
      const truncated =
        result.links.length > limit ||
        result.collisions.length > limit ||
        result.flows.length > limit ||
        result.unroutable.length > limit;
      return {
        pattern: text,
        ...result,
        links: result.links.slice(0, limit),
        collisions: result.collisions
          .slice(0, limit)
          .map((c) => ({ link: c.link, pairs: c.pairs.slice(0, limit) })),
        flows: result.flows.slice(0, limit),
        unroutable: result.unroutable.slice(0, limit),
        truncated,
      };
    },
  );
};
