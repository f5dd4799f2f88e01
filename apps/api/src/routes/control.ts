import {
  AdaptiveRoutingChangeSchema,
  AdaptiveRoutingPatch,
  AdaptiveRoutingStatusSchema,
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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UpstreamError } from '../emulator-client.ts';
import { ProviderError } from '../fabric-manager/provider.ts';
import { sendError } from '../http/errors.ts';
import type { Sampler } from '../sampler.ts';
import { checkTraffic } from '../traffic-check.ts';
import { withEmulator } from './with-emulator.ts';

/**
 * Adaptive routing, through the fabric manager's provider (the emulator's, the site's opafm.xml, or
 * none, with the reason); traffic: forwarded to the emulator, refused cleanly without one.
 */
export const controlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // 401, 403, 405 and 413 are added to every route's document by the route policy (http/route-policy.ts).
  const errors = { 400: ErrorReply, 409: ErrorReply, 502: ErrorReply, 504: ErrorReply };
  const mutates = { mutates: true };

  app.get(
    '/adaptive-routing',
    {
      schema: {
        summary: 'Adaptive routing settings (opafm <AdaptiveRouting>), or {available: false, reason}',
        response: { 200: AdaptiveRoutingStatusSchema, ...errors },
      },
    },
    (_request, reply) => fromProvider(reply, () => app.adaptiveRouting.get()),
  );

  app.put(
    '/adaptive-routing',
    {
      config: mutates,
      schema: {
        summary:
          'Change any subset of the adaptive routing settings (opafm.xml: validated by config_check, written, applied); 409 with the reason where the fabric has none',
        body: AdaptiveRoutingPatch,
        response: { 200: AdaptiveRoutingChangeSchema, ...errors },
      },
    },
    (request, reply) => fromProvider(reply, () => app.adaptiveRouting.set(request.body, changedBy(request))),
  );

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
    (request, reply) =>
      withEmulator(app.emulator, reply, async (emulator) => {
        // Paged where the flows are: the emulator keeps the listing and answers a page of it
        // (~30 MB read and parsed here for a permutation at fat-tree-27648 before).
        const { job, cursor } = request.query;
        const limit = request.query.limit ?? PAGE_DEFAULT;
        let from: { listing: string; offset: number } | undefined;
        if (cursor !== undefined) {
          from = trafficCursor(cursor);
          // The schema checked the form: a cursor of another route's lists is no listing held here.
          if (!from)
            return sendError(
              reply,
              410,
              'this cursor is of no flow listing held: read the first page again, without cursor',
            );
        }
        const page = await emulator.flowsPage(limit, { job, from });
        const end = (from?.offset ?? 0) + page.flows.length;
        return {
          flows: page.flows,
          total: page.total,
          ...(end < page.total ? { next: `${page.listing}.${end.toString(36)}` } : {}),
          jobs: page.jobs,
        };
      }),
  );

  app.post(
    '/traffic',
    {
      config: mutates,
      schema: {
        summary:
          'Start flows: pairs (osu_mbw_mr style), shift k, permutation seed, all-to-all, incast to, bisection, iperf from/to/streams, storage server/clients/op/ioSize; or {items: [...]}. Answers what started (count, jobs, bytes/s, the first flows), not every flow: GET /traffic?job= pages them',
        body: TrafficRequest,
        response: { 200: TrafficStartedSchema, ...errors, 404: ErrorReply },
      },
    },
    (request, reply) => {
      const problem = checkTraffic(app.fabric.fabric, request.body);
      if (problem) {
        sendError(reply, problem.statusCode, problem.message);
        return;
      }
      return withEmulator(app.emulator, reply, async (e) => {
        // The emulator sums what started and lists the first flows only (not ~10 MB at fat-tree-27648).
        const started = await e.startFlows(request.body, STARTED_FLOWS_LISTED);
        forgetFlows(app);
        return started;
      });
    },
  );

  app.delete(
    '/traffic',
    {
      config: mutates,
      schema: { summary: 'Stop every flow', response: { 200: FlowsSchema, ...errors } },
    },
    (_request, reply) =>
      withEmulator(app.emulator, reply, async (e) => {
        const stopped = await e.stopFlows();
        forgetFlows(app);
        return stopped;
      }),
  );
};

/** How long the last read of each list took (ms), per app (its sampler: one per app). */
const readCosts = new WeakMap<Sampler, Map<string, number>>();

/**
 * The key under which first pages share a read of `route`'s list (Listings' `reuse`): a list is
 * read at most once per what its last read cost — ~2 ms on a small fabric (each poll sees the
 * flows as they are), seconds for a permutation's ~30 MB at fat-tree-27648 (one read serves
 * every client meanwhile) — and never kept longer than a sampling interval.
 */
export function costKey(app: Pick<FastifyInstance, 'sampler'>, route: string): string {
  const cost = readCosts.get(app.sampler)?.get(route) ?? 1;
  return `read ${Math.floor(Date.now() / Math.max(1, Math.min(cost, app.sampler.intervalMs)))}`;
}

/** Runs `read` and keeps how long it took, for costKey. */
export async function timedRead<T>(
  app: Pick<FastifyInstance, 'sampler'>,
  route: string,
  read: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await read();
  } finally {
    const costs = readCosts.get(app.sampler) ?? new Map<string, number>();
    costs.set(route, performance.now() - started);
    readCosts.set(app.sampler, costs);
  }
}

/** After traffic starts or stops, the next first pages of jobs read them anew (the emulator's flow listings do so themselves). */
function forgetFlows(app: FastifyInstance): void {
  app.listings.invalidate('jobs');
}

/** A `/traffic` cursor (`listing.offset`, the offset in base 36), or undefined when it is not one. */
function trafficCursor(cursor: string): { listing: string; offset: number } | undefined {
  const match = /^(L[0-9a-z]{1,10})\.([0-9a-z]{1,8})$/.exec(cursor);
  return match ? { listing: match[1] as string, offset: Number.parseInt(match[2] as string, 36) } : undefined;
}

/** The provider's answer, or its refusal (ProviderError, the emulator's UpstreamError) as an error body. */
async function fromProvider<T>(reply: FastifyReply, action: () => Promise<T>) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ProviderError || error instanceof UpstreamError) {
      return sendError(reply, error.statusCode, error.message);
    }
    throw error;
  }
}

/**
 * Who asked, for the event log: the client's address and whether it sent a bearer token (beyond
 * loopback the route policy has checked it; on loopback none is needed and it is not checked).
 */
function changedBy(request: FastifyRequest): string {
  const token = /^Bearer\s/i.test(request.headers.authorization ?? '');
  return `${request.ip}, ${token ? 'bearer token' : 'no token'}`;
}
