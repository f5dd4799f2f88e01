import { execFile } from 'node:child_process';
import { ibsimNetFile, type Lab, labMissing, type SmRoutingEngine, startLab } from '@fabscope/lab';
import {
  type Fabric,
  type FabricLink,
  type FabricNode,
  parseTopology,
  twoTierFatTree,
} from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { parseIbtracert, type TracedHop } from './sm-tables-fixtures.ts';

// The routes are the subnet manager's: a real OpenSM routes a simulated InfiniBand subnet (ibsim,
// packages/lab), the API reads OpenSM's opensm-lfts.dump, and /api/v1/route must name the hops and
// ports that infiniband-diags' ibtracert traces through the switches' own tables, for every pair of
// 32 hosts. One test file per routing engine (sm-routes-<engine>-lab.test.ts), so that Vitest's
// workers trace the three engines side by side rather than one after another.

/** A two-tier fat tree of 32 hosts: 4 edge switches of 8 hosts, 4 cores (radix 12). */
const model = twoTierFatTree({
  name: 'lab-ft',
  fabricType: 'infiniband',
  radix: 12,
  edgeCount: 4,
  coreCount: 4,
  hostsPerEdge: 8,
});

/**
 * Runs an infiniband-diags tool on the lab. Its working directory is the lab's on a tmpfs: under
 * umad2sim each run writes a fake sysfs into it (./sys-<pid>), ~3 ms there against 10–60 ms on disk,
 * which is what lets every pair be traced.
 */
export function run(lab: Lab, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      {
        env: { ...process.env, ...lab.env },
        cwd: lab.cwd,
        timeout: 10_000,
        maxBuffer: 64 << 20,
        encoding: 'utf8',
      },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`))
          : resolve(stdout),
    ),
  );
}

/** `fn` over `items`, at most `limit` at once, results in order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface RouteAnswer {
  hops: TracedHop[];
  links: string[];
  tables: { source: string; from?: string; readAt?: string };
}

/** The subnet as the tools see it: discovered, nodes named by their NodeDescription. */
async function discover(lab: Lab): Promise<Fabric> {
  return parseTopology(await run(lab, 'ibnetdiscover', ['-p']));
}

/** The lab under OpenSM's `routing` engine and the API reading its tables; stop both with `lab.stop` after `api.close`. */
export async function startLabApi(
  routing: SmRoutingEngine,
): Promise<{ lab: Lab; fabric: Fabric; api: RunningApi }> {
  const lab = await startLab({
    net: ibsimNetFile(model),
    routing,
    sockName: `fabscope-sm-routes-${routing}-${process.pid}-${Date.now().toString(36)}`,
  });
  try {
    const fabric = await discover(lab);
    const config = configFromEnv({
      PORT: '0',
      FABSCOPE_LFTS: lab.lftsDumpPath,
      FABSCOPE_LFTS_INTERVAL_MS: '100',
      // Nothing listens there: these tests read routes, not counters.
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
    });
    const api = await startApi(config, fabric, {
      tools: { env: { ...process.env, ...lab.env }, cwd: lab.cwd },
    });
    return { lab, fabric, api };
  } catch (error) {
    await lab.stop();
    throw error;
  }
}

/** The switch a host's first port is cabled to. */
export function edgeOf(fabric: Fabric, host: FabricNode): string {
  const port = host.ports.find((p) => p && p.link >= 0);
  const link = fabric.links[port?.link ?? -1] as FabricLink;
  return link.a.node === host.name ? link.b.node : link.a.node;
}

export const hostsOf = (fabric: Fabric): FabricNode[] =>
  fabric.nodes.filter((n) => n.type === 'host').sort((a, b) => a.lid - b.lid);

export async function route(api: RunningApi, from: string, to: string): Promise<RouteAnswer> {
  const res = await api.app.inject(`/api/v1/route?from=${from}&to=${to}`);
  if (res.statusCode !== 200) throw new Error(`/route ${from} → ${to}: ${res.statusCode} ${res.body}`);
  return res.json() as RouteAnswer;
}

export const hopsOf = (answer: RouteAnswer): TracedHop[] =>
  answer.hops.map(({ node, inPort, outPort }) => ({
    node,
    ...(inPort === undefined ? {} : { inPort }),
    ...(outPort === undefined ? {} : { outPort }),
  }));

export async function traced(lab: Lab, from: FabricNode, to: FabricNode): Promise<TracedHop[]> {
  return parseIbtracert(await run(lab, 'ibtracert', [String(from.lid), String(to.lid)]));
}

/** Every ordered host pair whose /route differs from ibtracert, as `a → b: ours | theirs`. */
export async function disagreements(
  lab: Lab,
  api: RunningApi,
  pairs: [FabricNode, FabricNode][],
): Promise<string[]> {
  const results = await mapLimit(pairs, 4, async ([a, b]) => {
    const [ours, theirs] = await Promise.all([route(api, a.name, b.name), traced(lab, a, b)]);
    const o = JSON.stringify(hopsOf(ours));
    const t = JSON.stringify(theirs);
    return o === t ? null : `${a.name} → ${b.name}: ${o} | ${t}`;
  });
  return results.filter((r): r is string => r !== null);
}

/** Every ordered pair of distinct hosts. */
export function allPairs(hosts: FabricNode[]): [FabricNode, FabricNode][] {
  const pairs: [FabricNode, FabricNode][] = [];
  for (const a of hosts) for (const b of hosts) if (a !== b) pairs.push([a, b]);
  return pairs;
}

export interface LabApi {
  lab: Lab;
  fabric: Fabric;
  api: RunningApi;
  /** When the API started, Unix ms. */
  startedAt: number;
}

/**
 * One engine's file: the lab and API started once for its tests, and the test every engine runs —
 * on every one of the 992 host pairs, /route names the switches and ports ibtracert traces. `more`
 * adds that engine's own tests, given the running lab.
 */
export function describeEngine(routing: SmRoutingEngine, more?: (session: () => LabApi) => void): void {
  describe.skipIf(labMissing().length > 0)(
    '/api/v1/route is the subnet manager’s route (OpenSM on ibsim)',
    () => {
      describe(`OpenSM -R ${routing}`, () => {
        let session: LabApi | undefined;

        beforeAll(async () => {
          const startedAt = Date.now();
          session = { ...(await startLabApi(routing)), startedAt };
        });
        afterAll(async () => {
          await session?.api.close();
          await session?.lab.stop();
        });

        it('on every one of the 992 host pairs, /route names the switches and ports ibtracert traces', async () => {
          const { lab, fabric, api } = session as LabApi;
          const hosts = hostsOf(fabric);
          expect(hosts).toHaveLength(32);
          const pairs = allPairs(hosts);
          const first = await route(api, pairs[0]?.[0].name as string, pairs[0]?.[1].name as string);
          expect(first.tables).toMatchObject({ source: 'sm', from: 'lfts-dump' });
          expect(await disagreements(lab, api, pairs)).toEqual([]);
          // The same tables' static route load: every one of those paths routed, none lost.
          const load = (await api.app.inject('/api/v1/routes/static-load?limit=4')).json();
          expect(load).toMatchObject({ sources: 32, destinations: 32, routed: 992, unrouted: 0, looping: 0 });
          expect(load.tables).toMatchObject({ source: 'sm', from: 'lfts-dump' });
          // 992 ibtracert processes, four at a time: 7 s alone, several times that when the machine
          // is busy with other suites (a fresh clone's npm test runs them side by side).
        }, 150_000);

        more?.(() => session as LabApi);
      });
    },
  );
}
