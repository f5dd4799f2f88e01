import { type Static, Type } from '@sinclair/typebox';
import { Closed, HostList, Nullable } from './common.ts';

// `GET /api/v1/analysis` and `POST /api/v1/analysis`: contention of a traffic pattern on the
// fabric's static routes, and with adaptive routing, before a job runs.

/**
 * A pattern as parsePattern reads it: `pairs:A-B,C-D` (or `A->B`), `shift:K`, `permutation[:SEED]`, `all-to-all`,
 * `incast:HOST`, `bisection`; hosts may still 404. Line breaks spelt out, not `.`: JS's stops at \r, Python's does not.
 */
export const ANALYSIS_PATTERN =
  '^(?:pairs:[^,]+-[^,]+(?:,[^,]+-[^,]+)*|shift:[1-9]\\d{0,8}|permutation(?::\\d{1,9})?|all-to-all|incast:[^\\r\\n\\u2028\\u2029]+|bisection)$';

export const AnalysisQuery = Closed({
  pattern: Type.String({
    minLength: 1,
    pattern: ANALYSIS_PATTERN,
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
});
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
    Type.Object({
      from: Type.String(),
      to: Type.String(),
      rateGbps: Type.Number(),
      hops: Type.Integer(),
      adaptiveRateGbps: Type.Optional(
        Type.Number({ description: 'Expected rate with adaptive routing (POST only)' }),
      ),
    }),
    { description: 'Expected rate of each flow under static routing, max-min fair' },
  ),
  unroutable: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), reason: Type.String() })),
  truncated: Type.Boolean({ description: 'true when a list was cut to `limit` entries' }),
  hosts: Type.Optional(
    Type.Array(Type.String(), {
      description: 'The hosts a collective pattern ranged over, in LID order (POST only)',
    }),
  ),
  adaptive: Type.Optional(
    Nullable(
      Type.Object({
        aggregateGbps: Type.Number(),
        minFlowGbps: Type.Number(),
        maxIslLoad: Type.Integer(),
        sharedIsls: Type.Integer(),
      }),
      {
        description:
          'The same flows with adaptive routing spreading them over equal-cost paths (POST only); null beyond 200,000 flows',
      },
    ),
  ),
});

/** Most flows a POST answer lists: every flow of 1,152-host permutations and shifts, and far beyond. */
export const MAX_LISTED_FLOWS = 50_000;

export const AnalysisBody = Closed(
  {
    pattern: Type.String({
      minLength: 1,
      maxLength: 1_000_000,
      pattern: ANALYSIS_PATTERN,
      description: 'As in GET; collective patterns range over `nodes` (or the job’s nodes) in LID order',
    }),
    nodes: Type.Optional(
      Type.Union(
        [
          HostList(),
          Type.String({
            minLength: 1,
            maxLength: 100_000,
            description: 'A Slurm host list: node[001-032,040]',
          }),
        ],
        { description: 'The hosts the job would run on' },
      ),
    ),
    job: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Plan on this job’s nodes' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'Most links and collisions listed; default 1000. Flows are listed up to 50,000',
      }),
    ),
  },
  // Hosts by list or by job, not both.
  { not: { required: ['nodes', 'job'] } },
);
export type AnalysisBody = Static<typeof AnalysisBody>;

export type Analysis = Static<typeof AnalysisSchema>;
