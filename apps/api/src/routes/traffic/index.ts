import {
  ErrorReply,
  FlowsPageSchema,
  FlowsSchema,
  PAGE_DEFAULT,
  STARTED_FLOWS_LISTED,
  TrafficQuery,
  TrafficRequest,
  TrafficStartedSchema,
} from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CursorError } from '../../http/listings.ts';
import { emulatorOf } from '../../plugins/app/emulator.ts';
import { checkTraffic } from '../../traffic-check.ts';

/** Traffic in the emulator: listed a page at a time, started, stopped; 409 without an emulator. */
export const trafficRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply, 504: ErrorReply };
  // After traffic starts or stops, first pages of jobs read anew.
  const forgetFlows = () => app.listings.invalidate('jobs');

  app.get(
    '/traffic',
    {
      schema: {
        summary:
          'Flows running in the emulator, a page at a time (`next` reads on from the same listing), with every job’s flows and bytes/s',
        querystring: TrafficQuery,
        response: { 200: FlowsPageSchema, ...errors, 410: ErrorReply },
      },
    },
    async (request) => {
      const emulator = emulatorOf(app);
      const { job, cursor } = request.query;
      const limit = request.query.limit ?? PAGE_DEFAULT;
      let from: { listing: string; offset: number } | undefined;
      if (cursor !== undefined) {
        from = trafficCursor(cursor);
        if (!from)
          throw new CursorError(
            410,
            'this cursor is of no flow listing held: read the first page again, without cursor',
          );
      }
      const page = await emulator.flowsPage(limit, { job, from });
      const end = (from?.offset ?? 0) + page.flows.length;
      return { ...page, next: end < page.total ? `${page.listing}.${end.toString(36)}` : undefined };
    },
  );

  app.post(
    '/traffic',
    {
      config: { mutates: true },
      schema: {
        summary:
          'Start flows: pairs (osu_mbw_mr style), shift k, permutation seed, all-to-all, incast to, bisection, iperf from/to/streams, storage server/clients/op/ioSize; or {items: [...]}. Answers what started (count, jobs, bytes/s, the first flows), not every flow: GET /traffic?job= pages them',
        body: TrafficRequest,
        response: { 200: TrafficStartedSchema, ...errors, 404: ErrorReply },
      },
    },
    async (request) => {
      const problem = checkTraffic(app.fabric.fabric, request.body);
      if (problem) throw problem;
      const started = await emulatorOf(app).startFlows(request.body, STARTED_FLOWS_LISTED);
      forgetFlows();
      return started;
    },
  );

  app.delete(
    '/traffic',
    {
      config: { mutates: true },
      schema: { summary: 'Stop every flow', response: { 200: FlowsSchema, ...errors } },
    },
    async () => {
      const stopped = await emulatorOf(app).stopFlows();
      forgetFlows();
      return stopped;
    },
  );
};

/** A `/traffic` cursor (`listing.offset`, the offset in base 36), or undefined when it is not one. */
function trafficCursor(cursor: string): { listing: string; offset: number } | undefined {
  const match = /^(L[0-9a-z]{1,10})\.([0-9a-z]{1,8})$/.exec(cursor);
  return match ? { listing: match[1] as string, offset: Number.parseInt(match[2] as string, 36) } : undefined;
}
