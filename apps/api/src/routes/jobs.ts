import {
  ErrorReply,
  JobDetailSchema,
  JobsQuery,
  JobsReply,
  LinkFlowsQuery,
  LinkFlowsReply,
  NoQuery,
} from '@fabscope/contracts';
import { analyzeFlows, type Fabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { UpstreamError } from '../emulator-client.ts';
import { sendError } from '../http/errors.ts';
import { JobSourceError } from '../jobs/job.ts';
import { estimatedPairs, knownHosts } from '../jobs/job-flows.ts';
import { flowsOnLink, jobLinks } from '../jobs/job-report.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import { costKey, timedRead } from './control.ts';

/** Job sources fail as upstreams do: 502 with the reason; the emulator's 4xx pass through. */
export async function withJobs<T>(reply: FastifyReply, action: () => Promise<T>) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof JobSourceError) return sendError(reply, 502, error.message);
    if (error instanceof UpstreamError) return sendError(reply, error.statusCode, error.message);
    throw error;
  }
}

/** Node-index pairs of named hosts this fabric has. */
function indexPairs(fabric: Fabric, pairs: readonly { from: string; to: string }[]): [number, number][] {
  const out: [number, number][] = [];
  for (const { from, to } of pairs) {
    const a = fabric.nodeByName.get(from);
    const b = fabric.nodeByName.get(to);
    if (a && b && a !== b) out.push([a.index, b.index]);
  }
  return out;
}

/** Jobs (Slurm's, a jobs file's, or the emulator's traffic) and what their traffic crosses. */
/** Unreadable entries of a job source listed in `/jobs` (the rest are counted). */
const SKIPPED_LISTED = 20;

export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 404: ErrorReply, 502: ErrorReply, 504: ErrorReply };
  // The kind of every link direction drawn now, made once per drawing (a re-discovered fabric
  // swaps the link index: its new directions are asked about too).
  const kinds = new WeakMap<LinkIndex, Map<string, string>>();
  const kindsNow = () => {
    const index = app.fabric.linkIndex;
    let byId = kinds.get(index);
    if (!byId) {
      byId = new Map(index.channels.map((c) => [c.fixed.id, c.fixed.kind]));
      kinds.set(index, byId);
    }
    return byId;
  };

  app.get(
    '/jobs',
    {
      schema: {
        summary:
          'Jobs: from squeue, a jobs file, or the emulator (each traffic request is a job), a page at a time',
        querystring: JobsQuery,
        response: { 200: JobsReply, ...errors, 410: ErrorReply },
      },
    },
    (request, reply) =>
      withJobs(reply, async () => {
        // First pages share a read of the job source while one is as old as a read costs.
        const page = await app.listings.page(
          'jobs',
          request.query,
          () =>
            timedRead(app, 'jobs', async () => {
              const listing = await app.jobs.listing();
              return {
                instant: new Date().toISOString(),
                rows: listing.jobs,
                extra: { source: app.jobs.source?.kind ?? ('none' as const), skipped: listing.skipped },
              };
            }),
          costKey(app, 'jobs'),
        );
        const { source, skipped } = page.extra;
        return {
          source,
          // Entries the source could not read are left out and said, not the whole answer lost.
          ...(skipped.length > 0
            ? { skipped: { total: skipped.length, entries: skipped.slice(0, SKIPPED_LISTED) } }
            : {}),
          jobs: page.rows,
          total: page.total,
          ...(page.next === undefined ? {} : { next: page.next }),
        };
      }),
  );

  app.get(
    '/jobs/:id',
    {
      schema: {
        summary:
          'A job: its nodes, the links its traffic crosses with its share of each, predicted contention',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) }),
        querystring: NoQuery,
        response: { 200: JobDetailSchema, ...errors },
      },
    },
    (request, reply) =>
      withJobs(reply, async () => {
        const jobs = await app.jobs.list();
        const job = jobs.find((j) => j.id === request.params.id);
        if (!job) return sendError(reply, 404, `no job "${request.params.id}"`);
        const flows = await app.jobs.flowsNow();
        const own = flows.filter((f) => f.job === job.id);
        // A job not running (or without traffic) is predicted on its estimated pairs.
        const { fabric, tables } = app.fabric;
        const kindOf = kindsNow();
        const pairs =
          own.length > 0 ? own : estimatedPairs(knownHosts(fabric, job)).map(([from, to]) => ({ from, to }));
        const analysis = pairs.length > 0 ? analyzeFlows(fabric, tables, indexPairs(fabric, pairs)) : null;
        return {
          job,
          nodes: job.nodes.map((name) => {
            const node = fabric.nodeByName.get(name);
            return { name, known: node !== undefined && node.type !== 'switch' };
          }),
          estimated: own.length === 0 || own.every((f) => f.estimated),
          flows: own.length,
          links: jobLinks(flows, job.id).map((l) => ({ ...l, kind: kindOf.get(l.id) ?? 'unknown' })),
          contention: analysis && {
            engine: analysis.engine,
            flowCount: analysis.flowCount,
            maxIslLoad: analysis.maxIslLoad,
            sharedIsls: analysis.collisions.length,
            aggregateGbps: analysis.aggregateGbps,
            minFlowGbps: analysis.minFlowGbps,
          },
        };
      }),
  );

  app.get(
    '/links/flows',
    {
      schema: {
        summary:
          'Why a link is hot: the flows crossing a link direction with rate and job (estimated from running jobs without an emulator)',
        querystring: LinkFlowsQuery,
        response: { 200: LinkFlowsReply, ...errors, 410: ErrorReply },
      },
    },
    (request, reply) =>
      withJobs(reply, async () => {
        const { id } = request.query;
        if (!kindsNow().has(id)) {
          return sendError(reply, 404, `no link direction "${id}" (ids are node/port->node/port)`);
        }
        const page = await app.listings.page('links/flows', request.query, async () => {
          const { flows, jobs } = flowsOnLink(await app.jobs.flowsNow({ link: id }), id);
          const estimated = app.emulator === null || flows.some((f) => f.estimated);
          return { instant: new Date().toISOString(), rows: flows, extra: { jobs, estimated } };
        });
        return {
          id,
          estimated: page.extra.estimated,
          flows: page.rows,
          total: page.total,
          ...(page.next === undefined ? {} : { next: page.next }),
          jobs: page.extra.jobs,
        };
      }),
  );
};
