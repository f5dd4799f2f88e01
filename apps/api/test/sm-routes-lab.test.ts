import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ibsimNetFile, type Lab, labMissing, type SmRoutingEngine, startLab } from '@fabscope/lab';
import {
  emptyTables,
  type Fabric,
  type FabricLink,
  type FabricNode,
  parseTopology,
  twoTierFatTree,
} from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { SmTablesFollower } from '../src/sm-tables/follower.ts';
import { LftsDumpFile } from '../src/sm-tables/lfts-file.ts';
import { SwitchTablesQuery } from '../src/sm-tables/switch-query.ts';
import { parseIbtracert, type TracedHop } from './sm-tables-fixtures.ts';

// The routes are the subnet manager's: a real OpenSM routes a simulated InfiniBand subnet (ibsim,
// packages/lab), the API reads OpenSM's opensm-lfts.dump, and /api/v1/route must name the hops and
// ports that infiniband-diags' ibtracert traces through the switches' own tables, for every pair of
// 32 hosts under ftree, minhop and updn; then after a cable is pulled and OpenSM re-routes.

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
 * The tools' working directory: under umad2sim each run writes a fake sysfs into it (./sys-<pid>),
 * ~3 ms on a tmpfs against 10–60 ms on disk, which is what lets every pair be traced.
 */
const toolsCwd = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'fabscope-sm-routes-'));
afterAll(() => rmSync(toolsCwd, { recursive: true, force: true }));

function run(command: string, args: string[], env: Readonly<Record<string, string>>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      {
        env: { ...process.env, ...env },
        cwd: toolsCwd,
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

interface RouteAnswer {
  hops: TracedHop[];
  links: string[];
  tables: { source: string; from?: string; readAt?: string };
}

/** The subnet as the tools see it: discovered, nodes named by their NodeDescription. */
async function discover(lab: Lab): Promise<Fabric> {
  return parseTopology(await run('ibnetdiscover', ['-p'], lab.env));
}

async function startLabApi(routing: SmRoutingEngine): Promise<{ lab: Lab; fabric: Fabric; api: RunningApi }> {
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
      tools: { env: { ...process.env, ...lab.env }, cwd: toolsCwd },
    });
    return { lab, fabric, api };
  } catch (error) {
    await lab.stop();
    throw error;
  }
}

/** The switch a host's first port is cabled to. */
function edgeOf(fabric: Fabric, host: FabricNode): string {
  const port = host.ports.find((p) => p && p.link >= 0);
  const link = fabric.links[port?.link ?? -1] as FabricLink;
  return link.a.node === host.name ? link.b.node : link.a.node;
}

const hostsOf = (fabric: Fabric): FabricNode[] =>
  fabric.nodes.filter((n) => n.type === 'host').sort((a, b) => a.lid - b.lid);

async function route(api: RunningApi, from: string, to: string): Promise<RouteAnswer> {
  const res = await api.app.inject(`/api/v1/route?from=${from}&to=${to}`);
  if (res.statusCode !== 200) throw new Error(`/route ${from} → ${to}: ${res.statusCode} ${res.body}`);
  return res.json() as RouteAnswer;
}

const hopsOf = (answer: RouteAnswer): TracedHop[] =>
  answer.hops.map(({ node, inPort, outPort }) => ({
    node,
    ...(inPort === undefined ? {} : { inPort }),
    ...(outPort === undefined ? {} : { outPort }),
  }));

async function traced(lab: Lab, from: FabricNode, to: FabricNode): Promise<TracedHop[]> {
  return parseIbtracert(await run('ibtracert', [String(from.lid), String(to.lid)], lab.env));
}

/** Every ordered host pair whose /route differs from ibtracert, as `a → b: ours | theirs`. */
async function disagreements(
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

const missing = labMissing();

describe.skipIf(missing.length > 0)('/api/v1/route is the subnet manager’s route (OpenSM on ibsim)', () => {
  for (const routing of ['ftree', 'minhop', 'updn'] as const) {
    describe(`OpenSM -R ${routing}`, () => {
      let lab: Lab | undefined;
      let fabric: Fabric;
      let api: RunningApi | undefined;
      let startedAt = 0;

      beforeAll(async () => {
        startedAt = Date.now();
        ({ lab, fabric, api } = await startLabApi(routing));
      });
      afterAll(async () => {
        await api?.close();
        await lab?.stop();
      });

      it('on every one of the 992 host pairs, /route names the switches and ports ibtracert traces', async () => {
        const hosts = hostsOf(fabric);
        expect(hosts).toHaveLength(32);
        const pairs: [FabricNode, FabricNode][] = [];
        for (const a of hosts) for (const b of hosts) if (a !== b) pairs.push([a, b]);
        const first = await route(
          api as RunningApi,
          pairs[0]?.[0].name as string,
          pairs[0]?.[1].name as string,
        );
        expect(first.tables).toMatchObject({ source: 'sm', from: 'lfts-dump' });
        expect(await disagreements(lab as Lab, api as RunningApi, pairs)).toEqual([]);
        // The same tables' static route load: every one of those paths routed, none lost.
        const load = (await (api as RunningApi).app.inject('/api/v1/routes/static-load?limit=4')).json();
        expect(load).toMatchObject({ sources: 32, destinations: 32, routed: 992, unrouted: 0, looping: 0 });
        expect(load.tables).toMatchObject({ source: 'sm', from: 'lfts-dump' });
        // 992 ibtracert processes, four at a time: 7 s alone, several times that when the machine
        // is busy with other suites (a fresh clone's npm test runs them side by side).
      }, 150_000);

      if (routing === 'ftree') {
        it('after the ISL a route used is pulled, /route follows OpenSM’s re-route within one re-read', async () => {
          const hosts = hostsOf(fabric);
          const a = hosts[0] as FabricNode;
          const b = hosts.find((h) => edgeOf(fabric, h) !== edgeOf(fabric, a)) as FabricNode;
          const before = await route(api as RunningApi, a.name, b.name);
          // host → edge → [edge/port → core] → edge → host: pull the edge's up-link the route takes.
          const up = before.hops[1] as TracedHop;
          expect(before.hops).toHaveLength(5);
          const dumpedAt = statSync((lab as Lab).lftsDumpPath).mtimeMs;
          await (lab as Lab).unlink(up.node, up.outPort as number);
          await (lab as Lab).waitForLfts(dumpedAt + 1);
          const rereadBy = Date.now() + 100 + 400; // one re-read interval, and slack for a loaded machine
          let after = await route(api as RunningApi, a.name, b.name);
          while (JSON.stringify(after.hops) === JSON.stringify(before.hops) && Date.now() < rereadBy) {
            await new Promise((r) => setTimeout(r, 20));
            after = await route(api as RunningApi, a.name, b.name);
          }
          expect(after.hops[1]).toMatchObject({ node: up.node });
          expect(after.hops[1]?.outPort).not.toBe(up.outPort);
          expect(hopsOf(after)).toEqual(await traced(lab as Lab, a, b));
          expect(Date.parse(after.tables.readAt as string)).toBeGreaterThan(
            Date.parse(before.tables.readAt as string),
          );
          const events = (
            await (api as RunningApi).app.inject(
              // Since the API started: on a loaded machine the test before takes over a minute.
              `/api/v1/events?from=${new Date(startedAt).toISOString()}`,
            )
          ).json() as { events: { kind: string; detail: string }[] };
          expect(events.events.filter((e) => e.kind === 'routing').map((e) => e.detail)).toEqual([
            expect.stringMatching(/^routes from the subnet manager's tables \(lfts-dump\): 8 of 8 switches$/),
            expect.stringMatching(/^subnet manager re-routed: [1-8] switches' tables changed$/),
          ]);
          // Every pair from the edge that lost its cable agrees with ibtracert again.
          const edgeHosts = hosts.filter((h) => edgeOf(fabric, h) === up.node);
          expect(edgeHosts).toHaveLength(8);
          const pairs: [FabricNode, FabricNode][] = [];
          for (const s of edgeHosts) for (const d of hosts) if (s !== d) pairs.push([s, d]);
          expect(await disagreements(lab as Lab, api as RunningApi, pairs)).toEqual([]);
        });

        it('ibroute per switch and dump_fts read from the switches the tables OpenSM dumped', async () => {
          const env = { ...process.env, ...(lab as Lab).env };
          const dumped = { fabric, tables: emptyTables(fabric, 'none') };
          await new SmTablesFollower(dumped, new LftsDumpFile((lab as Lab).lftsDumpPath), {
            intervalMs: 1000,
          }).refresh();
          const fileTables = dumped.tables;
          for (const tool of ['ibroute', 'dump_fts'] as const) {
            const target = { fabric, tables: fileTables };
            const query = new SwitchTablesQuery(fabric, { tool, env, cwd: toolsCwd });
            const follower = new SmTablesFollower(target, query, {
              intervalMs: 1000,
            });
            expect(await follower.refresh()).toBe(true);
            expect(follower.origin).toMatchObject({ from: tool, missing: [] });
            for (const node of fabric.nodes) {
              if (node.type === 'switch') {
                expect(target.tables.bySwitch[node.index], `${tool}: ${node.name}`).toEqual(
                  fileTables.bySwitch[node.index],
                );
              }
            }
          }
        });
      }
    });
  }
});
