import { statSync } from 'node:fs';
import { emptyTables, type FabricNode } from '@fabscope/topology';
import { expect, it } from 'vitest';
import { SmTablesFollower } from '../src/sm-tables/follower.ts';
import { LftsDumpFile } from '../src/sm-tables/lfts-file.ts';
import { SwitchTablesQuery } from '../src/sm-tables/switch-query.ts';
import {
  allPairs,
  describeEngine,
  disagreements,
  edgeOf,
  hopsOf,
  hostsOf,
  route,
  traced,
} from './sm-routes-lab.ts';
import type { TracedHop } from './sm-tables-fixtures.ts';

// /api/v1/route against OpenSM's ftree routes on ibsim: every host pair as ibtracert traces it; then
// after a cable is pulled and OpenSM re-routes; and the switches' tables as ibroute and dump_fts read them.
describeEngine('ftree', (session) => {
  it('after the ISL a route used is pulled, /route follows OpenSM’s re-route within one re-read', async () => {
    const { lab, fabric, api, startedAt } = session();
    const hosts = hostsOf(fabric);
    const a = hosts[0] as FabricNode;
    const b = hosts.find((h) => edgeOf(fabric, h) !== edgeOf(fabric, a)) as FabricNode;
    const before = await route(api, a.name, b.name);
    // host → edge → [edge/port → core] → edge → host: pull the edge's up-link the route takes.
    const up = before.hops[1] as TracedHop;
    expect(before.hops).toHaveLength(5);
    const dumpedAt = statSync(lab.lftsDumpPath).mtimeMs;
    await lab.unlink(up.node, up.outPort as number);
    await lab.waitForLfts(dumpedAt + 1);
    const rereadBy = Date.now() + 100 + 400; // one re-read interval, and slack for a loaded machine
    let after = await route(api, a.name, b.name);
    while (JSON.stringify(after.hops) === JSON.stringify(before.hops) && Date.now() < rereadBy) {
      await new Promise((r) => setTimeout(r, 20));
      after = await route(api, a.name, b.name);
    }
    expect(after.hops[1]).toMatchObject({ node: up.node });
    expect(after.hops[1]?.outPort).not.toBe(up.outPort);
    expect(hopsOf(after)).toEqual(await traced(lab, a, b));
    expect(Date.parse(after.tables.readAt as string)).toBeGreaterThan(
      Date.parse(before.tables.readAt as string),
    );
    const events = (
      await api.app.inject(
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
    const pairs = allPairs(hosts).filter(([s]) => edgeHosts.includes(s));
    expect(await disagreements(lab, api, pairs)).toEqual([]);
  });

  it('ibroute per switch and dump_fts read from the switches the tables OpenSM dumped', async () => {
    const { lab, fabric } = session();
    const env = { ...process.env, ...lab.env };
    const dumped = { fabric, tables: emptyTables(fabric, 'none') };
    await new SmTablesFollower(dumped, new LftsDumpFile(lab.lftsDumpPath), {
      intervalMs: 1000,
    }).refresh();
    const fileTables = dumped.tables;
    for (const tool of ['ibroute', 'dump_fts'] as const) {
      const target = { fabric, tables: fileTables };
      const query = new SwitchTablesQuery(fabric, { tool, env, cwd: lab.cwd });
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
});
