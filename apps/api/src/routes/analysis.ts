import {
  AnalysisBody,
  AnalysisQuery,
  AnalysisSchema,
  ErrorReply,
  MAX_LISTED_FLOWS,
} from '@fabscope/contracts';
import {
  analyzeContention,
  analyzeFlows,
  type ContentionAnalysis,
  collectivePairs,
  type Fabric,
  type FabricNode,
  PatternError,
  parsePattern,
  patternEndpoint,
  patternFlows,
  patternHosts,
  type TrafficPattern,
  UnknownHostError,
} from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendError } from '../http/errors.ts';
import { expandHostList, HostListError } from '../jobs/hostlist.ts';
import { knownHosts } from '../jobs/job-flows.ts';
import { withJobs } from './jobs.ts';

/** Hosts of a POST that are not usable: 404 for a name the fabric lacks, 400 for a switch. */
class HostsError extends Error {
  constructor(
    readonly statusCode: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** Host names → this fabric's hosts in LID order (the order D-mod-K routing and the patterns use). */
function resolveHosts(fabric: Fabric, names: readonly string[]): FabricNode[] {
  const seen = new Set<FabricNode>();
  for (const name of names) {
    const node = fabric.nodeByName.get(name);
    if (!node) throw new HostsError(404, `nodes: unknown node "${name}"`);
    if (node.type === 'switch') throw new HostsError(400, `nodes: "${name}" is a switch, not a host`);
    seen.add(node);
  }
  return [...seen].sort((a, b) => a.lid - b.lid || a.index - b.index);
}

/** The flows of a pattern over an explicit host list (pairs are taken as written). */
function flowsOver(fabric: Fabric, pattern: TrafficPattern, hosts: FabricNode[]): [number, number][] {
  switch (pattern.kind) {
    case 'pairs':
      return patternFlows(fabric, pattern);
    case 'incast': {
      const to = patternEndpoint(fabric, pattern.host);
      return hosts.filter((h) => h !== to).map((h) => [h.index, to.index]);
    }
    default:
      return collectivePairs(hosts, pattern).map(([a, b]) => [a.index, b.index]);
  }
}

/** The reply of an analysis: lists cut at `limit` (flows at MAX_LISTED_FLOWS), and whether any was. */
function analysisReply(text: string, result: ContentionAnalysis, limit: number, flowLimit: number) {
  const truncated =
    result.links.length > limit ||
    result.collisions.length > limit ||
    result.flows.length > flowLimit ||
    result.unroutable.length > limit;
  return {
    pattern: text,
    ...result,
    links: result.links.slice(0, limit),
    collisions: result.collisions
      .slice(0, limit)
      .map((c) => ({ link: c.link, pairs: c.pairs.slice(0, limit) })),
    flows: result.flows.slice(0, flowLimit),
    unroutable: result.unroutable.slice(0, limit),
    truncated,
  };
}

/** Contention analysis of a traffic pattern on the fabric's static routes (what the UI shows before a job runs). */
export const analysisRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/analysis',
    {
      // A bounded number run at once, the others answered 503 (http/pressure.ts).
      config: { expensive: true, runsUnderPressure: true },
      schema: {
        summary: 'Flows of a traffic pattern sharing links under static routing, and their expected rates',
        querystring: AnalysisQuery,
        response: { 200: AnalysisSchema, 400: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      const { pattern: text, limit = 1000 } = request.query;
      let result: ReturnType<typeof analyzeContention>;
      try {
        const { fabric, tables } = app.fabric;
        result = analyzeContention(fabric, tables, parsePattern(text, fabric));
      } catch (error) {
        // The schema has checked the pattern's form: a host it names may still be missing (404).
        if (error instanceof PatternError)
          return sendError(reply, error instanceof UnknownHostError ? 404 : 400, `pattern: ${error.message}`);
        throw error;
      }
      return analysisReply(text, result, limit, limit);
    },
  );

  app.post(
    '/analysis',
    {
      config: { expensive: true, runsUnderPressure: true },
      schema: {
        summary:
          'Plan a job: flows of a pattern over a node list (or a job’s nodes) sharing links under static routing, and predicted per-flow and total throughput, static and with adaptive routing',
        body: AnalysisBody,
        response: { 200: AnalysisSchema, 400: ErrorReply, 404: ErrorReply, 502: ErrorReply, 503: ErrorReply },
      },
    },
    (request, reply) =>
      withJobs(reply, async () => {
        const { pattern: text, nodes, job, limit = 1000 } = request.body;
        if (nodes !== undefined && job !== undefined)
          return sendError(reply, 400, 'give nodes or job, not both');
        let names: string[] | null = null;
        if (job !== undefined) {
          const found = (await app.jobs.list()).find((j) => j.id === job);
          if (!found) return sendError(reply, 404, `no job "${job}"`);
          names = knownHosts(app.fabric.fabric, found);
          if (names.length === 0) return sendError(reply, 400, `job "${job}" runs on no host of this fabric`);
        } else if (nodes !== undefined) {
          try {
            names = typeof nodes === 'string' ? expandHostList(nodes) : nodes;
          } catch (error) {
            if (error instanceof HostListError) return sendError(reply, 400, `nodes: ${error.message}`);
            throw error;
          }
        }
        let result: ContentionAnalysis;
        let hosts: FabricNode[];
        try {
          const { fabric, tables } = app.fabric;
          hosts = names ? resolveHosts(fabric, names) : patternHosts(fabric);
          const pattern = parsePattern(text, fabric);
          result = analyzeFlows(fabric, tables, flowsOver(fabric, pattern, hosts), { adaptive: true });
        } catch (error) {
          if (error instanceof PatternError)
            return sendError(
              reply,
              error instanceof UnknownHostError ? 404 : 400,
              `pattern: ${error.message}`,
            );
          if (error instanceof HostsError) return sendError(reply, error.statusCode, error.message);
          throw error;
        }
        return { ...analysisReply(text, result, limit, MAX_LISTED_FLOWS), hosts: hosts.map((h) => h.name) };
      }),
  );
};
