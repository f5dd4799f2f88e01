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
  nodesNamedIfKnown,
  PatternError,
  parsePattern,
  patternEndpoint,
  patternFlows,
  patternHosts,
  type TrafficPattern,
  UnknownHostError,
} from '@fabscope/topology';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { InvalidRequestError, NotFoundError } from '../../errors.ts';
import { hostsOf } from '../../jobs/hostlist.ts';
import { knownHosts } from '../../jobs/job-flows.ts';

/** Runs `analyze`: a pattern naming a host the fabric lacks is 404, any other fault in it 400. */
function withPattern<T>(analyze: () => T): T {
  try {
    return analyze();
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    const message = `pattern: ${error.message}`;
    throw error instanceof UnknownHostError ? new NotFoundError(message) : new InvalidRequestError(message);
  }
}

/** The names of a POST's `nodes`: a Slurm host list or the names themselves. */
function namesOf(nodes: string | string[]): string[] {
  return typeof nodes === 'string'
    ? hostsOf(nodes, (message) => new InvalidRequestError(`nodes: ${message}`))
    : nodes;
}

/** Host names → this fabric's hosts in LID order (the order D-mod-K routing and the patterns use). */
function resolveHosts(fabric: Fabric, names: readonly string[]): FabricNode[] {
  const seen = new Set<FabricNode>();
  for (const name of names) {
    // A host of several adapters is each of its rails (model/resolve-node.ts).
    const nodes = nodesNamedIfKnown(fabric, name);
    if (nodes.length === 0) throw new NotFoundError(`nodes: unknown node "${name}"`);
    for (const node of nodes) {
      if (node.type === 'switch') throw new InvalidRequestError(`nodes: "${name}" is a switch, not a host`);
      seen.add(node);
    }
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
      config: { expensive: true, runsUnderPressure: true },
      schema: {
        summary: 'Flows of a traffic pattern sharing links under static routing, and their expected rates',
        querystring: AnalysisQuery,
        response: { 200: AnalysisSchema, 400: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request) => {
      const { pattern: text, limit = 1000 } = request.query;
      const { fabric, tables } = app.fabric;
      const result = withPattern(() => analyzeContention(fabric, tables, parsePattern(text, fabric)));
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
    async (request) => {
      const { pattern: text, nodes, job, limit = 1000 } = request.body;
      if (nodes !== undefined && job !== undefined)
        throw new InvalidRequestError('give nodes or job, not both');
      let names: string[] | null = null;
      if (job !== undefined) {
        const found = (await app.jobs.list()).find((j) => j.id === job);
        if (!found) throw new NotFoundError(`no job "${job}"`);
        names = knownHosts(app.fabric.fabric, found);
        if (names.length === 0) throw new InvalidRequestError(`job "${job}" runs on no host of this fabric`);
      } else if (nodes !== undefined) {
        names = namesOf(nodes);
      }
      const { fabric, tables } = app.fabric;
      const { hosts, result } = withPattern(() => {
        const hosts = names ? resolveHosts(fabric, names) : patternHosts(fabric);
        const pattern = parsePattern(text, fabric);
        return {
          hosts,
          result: analyzeFlows(fabric, tables, flowsOver(fabric, pattern, hosts), { adaptive: true }),
        };
      });
      return { ...analysisReply(text, result, limit, MAX_LISTED_FLOWS), hosts: hosts.map((h) => h.name) };
    },
  );
};
