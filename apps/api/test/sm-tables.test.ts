import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting, minHopRouting, routingFor } from '@fabscope/topology';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { type RunningApi, startApi } from '../src/server.ts';
import { SmTablesFollower } from '../src/sm-tables/follower.ts';
import { LftsDumpFile } from '../src/sm-tables/lfts-file.ts';
import { tablesAnswer } from '../src/sm-tables/origin.ts';
import type { SmTablesRead, SmTablesSource } from '../src/sm-tables/source.ts';
import { lftsDump } from './sm-tables-fixtures.ts';

const fabric = buildScenario('ar-demo');
const ftree = fatTreeRouting(fabric);
const minhop = minHopRouting(fabric);

describe("OpenSM's LFT dump file", () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-lfts-'));
  const path = join(dir, 'opensm-lfts.dump');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is taken only whole: not there, cut short, complete, unchanged, rewritten', async () => {
    const file = new LftsDumpFile(path);
    expect(await file.read(undefined)).toMatchObject({ kind: 'not-ready' });
    const text = lftsDump(fabric, ftree);
    // OpenSM writes the file in place, table after table: a reader may see any prefix of it.
    // (Cut at a table boundary it looks complete: the follower then holds it, below.)
    writeFileSync(path, text.slice(0, text.indexOf(' lids dumped') - 1));
    expect(await file.read(undefined)).toMatchObject({ kind: 'not-ready' });
    writeFileSync(path, text);
    const read = await file.read(undefined);
    expect(read).toMatchObject({ kind: 'dump', text });
    const version = (read as Extract<SmTablesRead, { kind: 'dump' }>).version;
    expect(await file.read(version)).toEqual({ kind: 'unchanged' });
    writeFileSync(path, lftsDump(fabric, minhop));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(await file.read(version)).toMatchObject({ kind: 'dump', text: lftsDump(fabric, minhop) });
  });
});

/** A source that answers what the test last put in it. */
class FakeSource implements SmTablesSource {
  readonly from = 'lfts-dump';
  next: SmTablesRead = { kind: 'not-ready', reason: 'nothing yet' };
  async read(): Promise<SmTablesRead> {
    return this.next;
  }
}

describe('the subnet manager tables follower', () => {
  const edges = fabric.nodes.filter((n) => n.type === 'switch' && n.tier === 1);

  it('starts with no routes, takes the first dump whole, records re-routes with the switches changed', async () => {
    const source = new FakeSource();
    const events = new MemoryEventLog();
    let now = 1_000_000;
    const target = { fabric, tables: ftree };
    const follower = new SmTablesFollower(target, source, { intervalMs: 1000, events, now: () => now });
    // Every switch routes nothing but itself until the first dump is read.
    expect(target.tables.bySwitch.every((t) => !t || t.every((p) => p === 0xff || p === 0))).toBe(true);
    expect(tablesAnswer(follower.origin, 'ibroute', now)).toEqual({ source: 'computed', engine: 'ibroute' });
    expect(await follower.refresh()).toBe(false);

    source.next = { kind: 'dump', text: lftsDump(fabric, ftree), version: 'v1' };
    expect(await follower.refresh()).toBe(true);
    for (const node of fabric.nodes) {
      if (node.type === 'switch')
        expect(target.tables.bySwitch[node.index]).toEqual(ftree.bySwitch[node.index]);
    }
    now += 2500;
    expect(tablesAnswer(follower.origin, 'ibroute', now)).toEqual({
      source: 'sm',
      from: 'lfts-dump',
      readAt: new Date(1_000_000).toISOString(),
      changedAt: new Date(1_000_000).toISOString(),
      ageSeconds: 2.5,
    });

    // The same file again: read (its age restarts), nothing changed, no event.
    source.next = { kind: 'unchanged' };
    expect(await follower.refresh()).toBe(false);
    expect(follower.origin.readAtMs).toBe(now);

    const changed = fabric.nodes.filter(
      (n) =>
        n.type === 'switch' &&
        (ftree.bySwitch[n.index] as Uint8Array).some(
          (p, i) => p !== (minhop.bySwitch[n.index] as Uint8Array)[i],
        ),
    ).length;
    expect(changed).toBeGreaterThan(0);
    source.next = { kind: 'dump', text: lftsDump(fabric, minhop), version: 'v2' };
    now += 1000;
    expect(await follower.refresh()).toBe(true);
    expect(events.list(0, now).map((e) => [e.kind, e.detail])).toEqual([
      [
        'routing',
        `routes from the subnet manager's tables (lfts-dump): ${edges.length + 2} of ${edges.length + 2} switches`,
      ],
      ['routing', `subnet manager re-routed: ${changed} switches' tables changed`],
    ]);
  });

  it('says which switches the subnet manager gave no table for, and never fills them in', async () => {
    const source = new FakeSource();
    const target = { fabric, tables: ftree };
    const follower = new SmTablesFollower(target, source, { intervalMs: 1000 });
    const gone = edges[0]?.name as string;
    source.next = { kind: 'dump', text: lftsDump(fabric, ftree, [gone]), version: 'short' };
    // A dump lacking switches may be one cut at a table boundary: taken once it stays the same.
    expect(await follower.refresh()).toBe(false);
    expect(follower.origin.readAtMs).toBeNull();
    expect(await follower.refresh()).toBe(true);
    expect(follower.origin.missing).toEqual([gone]);
    const lft = target.tables.bySwitch[
      (fabric.nodeByName.get(gone) as { index: number }).index
    ] as Uint8Array;
    expect([...lft].filter((p) => p !== 0xff)).toEqual([0]); // only itself
    expect(tablesAnswer(follower.origin, 'ibroute', Date.now())).toMatchObject({
      source: 'sm',
      missingSwitches: { count: 1, names: [gone] },
    });
  });

  it('keeps the tables it has when a dump does not fit the topology, and says why', async () => {
    const source = new FakeSource();
    const target = { fabric, tables: ftree };
    const follower = new SmTablesFollower(target, source, { intervalMs: 1000 });
    source.next = { kind: 'dump', text: lftsDump(fabric, ftree), version: 'v1' };
    await follower.refresh();
    const before = target.tables;
    source.next = {
      kind: 'dump',
      text: "Unicast lids [0-3] of switch Lid 99 guid 0x00000000deadbeef ('elsewhere'):\n0x0001 001 # x\n3 lids dumped\n",
      version: 'v2',
    };
    expect(await follower.refresh()).toBe(false);
    expect(target.tables).toBe(before);
    expect(follower.origin.error).toMatch(/no switch with GUID 0x00000000deadbeef/);
  });
});

describe('FABSCOPE_LFTS: /api/v1/route from the subnet manager’s tables', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-lfts-api-'));
  const path = join(dir, 'opensm-lfts.dump');
  let api: RunningApi | undefined;
  const config = () =>
    configFromEnv({
      PORT: '0',
      FABSCOPE_LFTS: path,
      FABSCOPE_LFTS_INTERVAL_MS: '100',
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
    });

  beforeAll(() => writeFileSync(path, ''));
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = async (url: string) => {
    const res = await (api as RunningApi).app.inject(`/api/v1${url}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('answers 503 until the dump is complete, then routes by it and says so; the static load from the same tables', async () => {
    writeFileSync(path, lftsDump(fabric, minhop).slice(0, 200));
    api = await startApi(config(), fabric);
    const early = await get('/route?from=nodeA&to=nodeC');
    expect(early.status).toBe(503);
    expect(early.body.message).toMatch(/subnet manager's forwarding tables \(lfts-dump\) are not read yet/);
    expect((await get('/routes/static-load')).status).toBe(503);

    writeFileSync(path, lftsDump(fabric, minhop));
    let route = await get('/route?from=nodeA&to=nodeC');
    for (let i = 0; i < 100 && route.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      route = await get('/route?from=nodeA&to=nodeC');
    }
    expect(route.status).toBe(200);
    expect(route.body.tables).toMatchObject({ source: 'sm', from: 'lfts-dump' });
    expect(route.body.tables.ageSeconds).toBeLessThan(5);
    expect(route.body.engine).toBe('ibroute');

    const load = await get('/routes/static-load?limit=3');
    expect(load.status).toBe(200);
    const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
    expect(load.body).toMatchObject({
      tables: { source: 'sm', from: 'lfts-dump' },
      sources: hosts,
      destinations: hosts,
      routed: hosts * (hosts - 1),
      unrouted: 0,
      looping: 0,
    });
    expect(load.body.ports).toHaveLength(3);
    expect(load.body.ports[0].paths).toBeGreaterThanOrEqual(load.body.ports[2].paths);
    expect((await get('/routes/static-load?limit=1001')).status).toBe(400);
    const events = await get(`/events?from=${new Date(Date.now() - 60_000).toISOString()}`);
    expect(events.body.events.filter((e: { kind: string }) => e.kind === 'routing')).toHaveLength(1);
  });

  it('without FABSCOPE_LFTS the tables are computed, and the answer says by which engine', async () => {
    api = await startApi(
      configFromEnv({ PORT: '0', FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics' }),
      fabric,
    );
    const route = await get('/route?from=nodeA&to=nodeC');
    expect(route.body.tables).toEqual({ source: 'computed', engine: route.body.engine });
  });

  it('in the emulated demo the fabric manager is the subnet manager: its tables, read at each poll', async () => {
    const emulator = await startEmulatorServer(
      createEmulator({ fabric, tables: ftree, routing: routingFor('fattree'), startTimeMs: Date.now() }),
      { tickMs: 20, fromDateNow: true },
    );
    try {
      api = await startApi(
        configFromEnv({
          PORT: '0',
          FABSCOPE_EMULATOR_URL: emulator.url,
          FABSCOPE_ROUTING: 'fattree',
          FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
          FABSCOPE_SAMPLE_INTERVAL_MS: '100',
        }),
        fabric,
      );
      let route = await get('/route?from=nodeA&to=nodeC');
      for (let i = 0; i < 100 && route.body.tables.source !== 'sm'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        route = await get('/route?from=nodeA&to=nodeC');
      }
      expect(route.body.tables).toMatchObject({ source: 'sm', from: 'emulator' });
      expect(route.body.tables.ageSeconds).toBeLessThan(5);
    } finally {
      await api?.close(); // before the emulator it polls
      api = undefined;
      await emulator.close();
    }
  });
});
