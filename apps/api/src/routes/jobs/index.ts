import { ErrorReply, JobDetailSchema, JobsQuery, JobsReply, NoQuery } from '@fabscope/contracts';
import { analyzeFlows, type Fabric } from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../errors.ts';
import { costKey, timedRead } from '../../http/read-cost.ts';
import { ArrayJobError, arrayTasksOf, type Job } from '../../jobs/job.ts';
import { adapterPairs, estimatedPairs, knownHosts, railsOf } from '../../jobs/job-flows.ts';
import { jobLinks, linkKinds } from '../../jobs/job-report.ts';
import { jobsCrossing } from '../../jobs/jobs-crossing.ts';
import { jobReportRoutes } from './report/index.ts';

/** Node-index pairs of named hosts this fabric has, a pair per rail. */
function indexPairs(fabric: Fabric, pairs: readonly { from: string; to: string }[]): [number, number][] {
  return adapterPairs(
    fabric,
    pairs.map(({ from, to }) => [from, to] as const),
  ).map(([a, b]) => [a.index, b.index]);
}

/** Unreadable entries of a job source listed in `/jobs` (the rest are counted). */
const SKIPPED_LISTED = 20;

/** Jobs (Slurm's, a jobs file's, or the emulator's traffic) and what their traffic crosses. */
export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 400: ErrorReply, 404: ErrorReply, 502: ErrorReply, 504: ErrorReply };

  /** The jobs whose flows cross an alarm's listed directions now, with how (a cleared alarm lists none). */
  const jobsAffected = async (alarmId: string, jobs: readonly Job[]): Promise<Job[]> => {
    const alarm = app.alarms?.list(true).find((a) => a.id === alarmId);
    if (!alarm) throw new NotFoundError(`no alarm "${alarmId}" (active, or among the last cleared)`);
    if (alarm.state === 'cleared' || alarm.members.length === 0) return [];
    const byId = new Map(jobs.map((j) => [j.id, j]));
    const crossing = jobsCrossing(
      await app.jobs.flowsByDirection(),
      alarm.members.map((m) => m.id),
    );
    return crossing.flatMap(({ job, directions, flows }) => {
      const found = byId.get(job);
      return found ? [{ ...found, crossing: { directions, flows } }] : [];
    });
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
    async (request) => {
      const page = await app.listings.page(
        'jobs',
        request.query,
        () =>
          timedRead(app, 'jobs', async () => {
            const listing = await app.jobs.listing();
            const alarm = request.query.alarm;
            return {
              instant: new Date().toISOString(),
              rows: alarm === undefined ? listing.jobs : await jobsAffected(alarm, listing.jobs),
              extra: { source: app.jobs.source?.kind ?? ('none' as const), skipped: listing.skipped },
            };
          }),
        costKey(app, 'jobs'),
      );
      const { source, skipped } = page.extra;
      return {
        ...page,
        source,
        ...(skipped.length > 0
          ? { skipped: { total: skipped.length, entries: skipped.slice(0, SKIPPED_LISTED) } }
          : {}),
        jobs: page.rows,
      };
    },
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
    async (request) => {
      const jobs = await app.jobs.list();
      const job = jobs.find((j) => j.id === request.params.id);
      if (!job) {
        // An array job's id names its tasks: each is a job of its own here.
        const tasks = arrayTasksOf(jobs, request.params.id);
        if (tasks.length > 0) throw new ArrayJobError(request.params.id, tasks);
        throw new NotFoundError(`no job "${request.params.id}"`);
      }
      const flows = await app.jobs.flowsNow();
      const own = flows.filter((f) => f.job === job.id);
      const { fabric, tables } = app.fabric;
      const kindOf = linkKinds(app.fabric.linkIndex);
      const pairs =
        own.length > 0 ? own : estimatedPairs(knownHosts(fabric, job)).map(([from, to]) => ({ from, to }));
      const analysis = pairs.length > 0 ? analyzeFlows(fabric, tables, indexPairs(fabric, pairs)) : null;
      return {
        job,
        nodes: job.nodes.map((name) => {
          const rails = railsOf(fabric, name);
          const named = rails.length === 1 && rails[0]?.name === name;
          return {
            name,
            known: rails.length > 0,
            ...(rails.length > 0 && !named ? { rails: rails.map((n) => n.name) } : {}),
          };
        }),
        estimated: own.length === 0 || own.every((f) => f.estimated),
        flows: own.length,
        links: jobLinks(flows, job.id).map((l) => ({ ...l, kind: kindOf.get(l.id) ?? 'unknown' })),
        contention: analysis && { ...analysis, sharedIsls: analysis.collisions.length },
      };
    },
  );

  await app.register(jobReportRoutes);
};
