import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatIbnetdiscover } from '@fabscope/test-support';
import {
  buildScenario,
  type Fabric,
  FabricBuilder,
  fatTreeRouting,
  topologyDrift,
  topologySnapshot,
} from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, configFromEnv } from '../src/config.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { DriftTracker } from '../src/topology-live/drift-tracker.ts';
import { liveTopologyFor } from '../src/topology-live/from-config.ts';
import { TopologyVersions, VERSIONS_FILE } from '../src/topology-live/versions.ts';

/** ar-demo as rebuilt with some cables changed: `drop` pulled, `move` re-plugged at another port. */
function arDemo(
  change: { drop?: string; move?: { id: string; to: [string, number, string, number] } } = {},
): Fabric {
  const design = buildScenario('ar-demo');
  const b = new FabricBuilder(design.name, design.fabricType);
  for (const n of design.nodes) {
    b.addNode({ name: n.name, type: n.type, guid: n.guid, portCount: n.portCount, tier: n.tier, lid: n.lid });
  }
  for (const l of design.links) {
    if (l.id === change.drop) continue;
    if (l.id === change.move?.id) {
      const [a, ap, z, zp] = change.move.to;
      b.connect(a, ap, z, zp, l.rateGbps, l.kind);
    } else b.connect(l.a.node, l.a.port, l.b.node, l.b.port, l.rateGbps, l.kind);
  }
  return b.build();
}
const MOVED = { id: 'edge1/3--core1/1', to: ['edge1', 3, 'core1', 5] as [string, number, string, number] };

describe('settings', () => {
  it('defaults, and refusals naming the setting', () => {
    expect(configFromEnv({}).topologyLive).toEqual({
      discoverIntervalMs: 60_000,
      expectedPath: undefined,
      driftStableSeconds: 30,
      maxVersions: 100,
    });
    for (const [name, value] of [
      ['FABSCOPE_DISCOVER_INTERVAL_MS', '999'],
      ['FABSCOPE_DISCOVER_INTERVAL_MS', '1e4'],
      ['FABSCOPE_DRIFT_STABLE_SECONDS', '-1'],
      ['FABSCOPE_TOPOLOGY_VERSIONS', '1'],
      ['FABSCOPE_EXPECTED_TOPOLOGY', '/no/such/design.topo'],
    ] as const) {
      expect(() => configFromEnv({ [name]: value })).toThrow(ConfigError);
      expect(() => configFromEnv({ [name]: value })).toThrow(name);
    }
  });

  it('a golden file that does not parse stops the start, naming the file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-golden-'));
    try {
      const golden = join(dir, 'bad.topo');
      writeFileSync(golden, 'Switch 8 "s1"\n[1] this is not a port\n');
      const config = configFromEnv({ FABSCOPE_EXPECTED_TOPOLOGY: golden });
      expect(() => liveTopologyFor(config, arDemo(), undefined)).toThrow(
        /FABSCOPE_EXPECTED_TOPOLOGY: .*bad\.topo.*line 2/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('DriftTracker: the stability window', () => {
  const design = topologySnapshot(arDemo());
  const pulled = topologyDrift(design, topologySnapshot(arDemo({ drop: 'edge1/3--core1/1' })));

  it('reports a finding once it has held the window, not before', () => {
    const t = new DriftTracker(30_000);
    t.observe(pulled, 0);
    expect(t.report(29_999)).toMatchObject({ findings: [], pending: 1 });
    t.observe(pulled, 20_000);
    const { findings } = t.report(30_000);
    expect(findings.map((f) => [f.finding.kind, f.count, f.present])).toEqual([['missing-link', 1, true]]);
  });

  it('a cable re-seated within the window is never reported', () => {
    const t = new DriftTracker(30_000);
    t.observe(pulled, 0);
    t.observe([], 5000);
    expect(t.report(40_000)).toEqual({ findings: [], pending: 0 });
  });

  it('a flapping cable is one finding with a count, reported while it flaps, forgotten a window after', () => {
    const t = new DriftTracker(30_000);
    for (let i = 0; i < 10; i++) {
      t.observe(pulled, i * 2000);
      t.observe([], i * 2000 + 1000);
    }
    const { findings } = t.report(20_000);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ count: 10, present: false });
    expect(t.report(19_000 + 30_000).findings).toHaveLength(0);
  });

  it('with a window of 0 a finding is reported at once and forgotten when it goes', () => {
    const t = new DriftTracker(0);
    t.observe(pulled, 0);
    expect(t.report(0).findings).toHaveLength(1);
    t.observe([], 1);
    expect(t.report(1).findings).toHaveLength(0);
  });
});

describe('TopologyVersions', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records only changes, answers the topology at an instant and the changes between two', () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-versions-'));
    const v = new TopologyVersions(topologySnapshot(arDemo()), { nowMs: 1000, maxVersions: 10 });
    expect(v.record(topologySnapshot(arDemo()), 2000, 'discovered')).toBeNull();
    expect(
      v.record(topologySnapshot(arDemo({ drop: 'edge1/3--core1/1' })), 3000, 'discovered')?.version,
    ).toBe(2);
    expect(
      v.record(topologySnapshot(arDemo({ move: MOVED })), 4000, 'discovered')?.changes.map((c) => c.kind),
    ).toEqual(['link-added']);
    expect(v.at(999)).toBeNull();
    expect(v.at(2999)?.version).toBe(1);
    expect(v.at(3500)?.snapshot.links).toHaveLength(7);
    expect(v.at(4000)?.version).toBe(3);
    expect(v.between(1000, 4000).map((x) => x.version)).toEqual([2, 3]);
    expect(v.versionAt(3999)).toBe(2);
  });

  it('keeps at most maxVersions, folding the oldest into the base', () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-versions-'));
    const v = new TopologyVersions(topologySnapshot(arDemo()), { nowMs: 0, maxVersions: 3, dir });
    for (let i = 1; i <= 6; i++) {
      v.record(
        topologySnapshot(i % 2 ? arDemo({ drop: 'edge1/3--core1/1' }) : arDemo()),
        i * 1000,
        'discovered',
      );
    }
    expect(v.latest().version).toBe(7);
    expect(v.historyFromMs()).toBe(4000);
    expect(v.at(3999)).toBeNull();
    expect(v.at(5000)?.snapshot.links).toHaveLength(7);
    expect(v.at(6000)?.snapshot.links).toHaveLength(8);
    expect(readFileSync(join(dir, VERSIONS_FILE), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('survives a restart: read back from the file, a torn last line skipped, a differing start a new version', () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-versions-'));
    const first = new TopologyVersions(topologySnapshot(arDemo()), { nowMs: 1000, maxVersions: 10, dir });
    first.record(topologySnapshot(arDemo({ drop: 'edge1/3--core1/1' })), 2000, 'discovered');
    const file = join(dir, VERSIONS_FILE);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"version":3,"timeMs":25`);
    const second = new TopologyVersions(topologySnapshot(arDemo({ move: MOVED })), {
      nowMs: 3000,
      maxVersions: 10,
      dir,
    });
    expect(second.loadedVersion).toBe(3);
    expect(second.at(1500)?.snapshot.links).toHaveLength(8);
    expect(second.at(2500)?.snapshot.links).toHaveLength(7);
    expect(
      second.between(2000, 3000).map((x) => [x.version, x.source, x.changes.map((c) => c.kind)]),
    ).toEqual([[3, 'loaded', ['link-added']]]);
    // The same fabric again: nothing new. Another fabric: a history of its own.
    expect(
      new TopologyVersions(topologySnapshot(arDemo({ move: MOVED })), { nowMs: 4000, maxVersions: 10, dir })
        .loadedVersion,
    ).toBe(3);
    const other = new TopologyVersions(topologySnapshot(buildScenario('single-switch-32')), {
      nowMs: 5000,
      maxVersions: 10,
      dir,
    });
    expect([other.loadedVersion, other.historyFromMs()]).toEqual([1, 5000]);
  });
});

describe('the API with a live topology (discovery faked)', () => {
  let app: FastifyInstance;
  let found: Fabric = arDemo();
  let nowMs = Date.now() - 60_000;
  const events = new MemoryEventLog();
  let stop: () => Promise<void>;
  let live: ReturnType<typeof liveTopologyFor>['live'];
  let dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const get = async (url: string): Promise<{ status: number; body: any }> => {
    const res = await app.inject(`/api/v1${url}`);
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-live-'));
    const golden = join(dir, 'golden.topo');
    writeFileSync(golden, formatIbnetdiscover(arDemo()));
    const config = {
      ...configFromEnv({ FABSCOPE_EXPECTED_TOPOLOGY: golden, FABSCOPE_DRIFT_STABLE_SECONDS: '30' }),
      fabricSource: 'infiniband' as const,
    };
    const fabric = arDemo();
    const topology = liveTopologyFor(config, fabric, events, {
      discover: async () => found,
      now: () => nowMs,
    });
    live = topology.live;
    stop = topology.stop;
    const store = new EmbeddedStore({ targets: ['http://127.0.0.1:9/metrics'] });
    const linkIndex = new LinkIndex(fabric);
    app = await buildApp({
      state: {
        fabric: { fabric, tables: fatTreeRouting(fabric), linkIndex },
        store,
        sampler: new Sampler(store, linkIndex),
        emulator: null,
        events,
        topologyLive: live,
      },
      listenHost: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await stop();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a discovery with a cable moved: a topology event, a version, /health says the drawn fabric is old', async () => {
    const loadedAt = nowMs;
    nowMs += 10_000;
    found = arDemo({ move: MOVED });
    await live.refresh();
    const topologyEvents = events.list(0, Number.POSITIVE_INFINITY).filter((e) => e.kind === 'topology');
    expect(topologyEvents.map((e) => [e.subject, e.detail, e.severity])).toEqual([
      ['edge1/3', 'link moved: edge1/3 was cabled to core1/1, now to core1/5', 'warning'],
    ]);
    const status = (await get('/topology/status')).body;
    expect(status).toMatchObject({
      live: true,
      version: 2,
      loadedVersion: 1,
      changed: true,
      summary: '1 link moved',
    });
    expect(status.drift).toEqual({ configured: true, findings: 0 });
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(health.body.topology).toMatchObject({
      changed: true,
      version: 2,
      summary: 'topology changed since loaded: 1 link moved',
    });
    // The drawn topology is the loaded one; at an instant, the version in force then.
    const drawn = (await get('/topology')).body;
    expect(drawn.links.map((l: { id: string }) => l.id)).toContain('edge1/3--core1/1');
    const before = (await get(`/topology?time=${(loadedAt + 5000) / 1000}`)).body;
    expect(before.links.map((l: { id: string }) => l.id)).toContain('edge1/3--core1/1');
    const after = (await get(`/topology?time=${new Date(nowMs).toISOString()}`)).body;
    expect(after.links.map((l: { id: string }) => l.id)).toContain('edge1/3--core1/5');
    expect(after.links.map((l: { id: string }) => l.id)).not.toContain('edge1/3--core1/1');
    expect((await get(`/topology?time=${(loadedAt - 1000) / 1000}`)).status).toBe(404);
    expect((await get(`/topology?time=${(Date.now() + 60_000) / 1000}`)).status).toBe(404);
    const changes = (await get(`/topology/changes?from=${loadedAt / 1000}`)).body;
    expect(changes).toMatchObject({ fromVersion: 1, toVersion: 2, complete: true, total: 1 });
    expect(changes.versions[0].changes[0]).toMatchObject({
      kind: 'link-moved',
      subject: 'edge1/3',
      before: { a: { node: 'edge1', port: 3 }, b: { node: 'core1', port: 1 } },
      after: { a: { node: 'edge1', port: 3 }, b: { node: 'core1', port: 5 } },
    });
  });

  it('drift: the moved cable is one miswired finding, once held for the window', async () => {
    const early = (await get('/topology/drift')).body;
    expect(early).toMatchObject({ configured: true, total: 0, pending: 1, stableSeconds: 30 });
    expect(early.expected).toEqual({ file: 'golden.topo', nodes: 8, links: 8 });
    nowMs += 30_000;
    const drift = (await get('/topology/drift?limit=5')).body;
    expect(drift).toMatchObject({ total: 1, pending: 0, comparedWith: { source: 'discovered', version: 2 } });
    expect(drift.findings[0]).toMatchObject({
      kind: 'miswired',
      subject: 'edge1/3',
      detail: 'miswired: edge1/3 should be cabled to core1/1, is cabled to core1/5',
      present: true,
      count: 1,
      flapping: false,
    });
    expect((await get('/topology/drift?kind=extra-link')).body).toMatchObject({ total: 0, findings: [] });
    // Announced once as an event when it came due; a second look announces nothing more.
    live.announceDrift();
    live.announceDrift();
    const announced = events.list(0, Number.POSITIVE_INFINITY).filter((e) => /^drift/.test(e.detail));
    expect(announced.map((e) => [e.kind, e.subject, e.detail, e.severity])).toEqual([
      [
        'topology',
        'edge1/3',
        'drift: miswired: edge1/3 should be cabled to core1/1, is cabled to core1/5',
        'warning',
      ],
    ]);
    expect((await get('/topology/drift?limit=0')).status).toBe(400);
  });

  it('a link-state event prompts a discovery', async () => {
    found = arDemo({ drop: 'edge1/3--core1/1' });
    // The prompt's delay passes on a fake clock; the discovery it starts is awaited, not slept for.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      events.append({ timeMs: nowMs, kind: 'link-state', subject: 'edge1/3--core1/1', detail: 'link down' });
      await vi.advanceTimersByTimeAsync(1000);
    } finally {
      vi.useRealTimers();
    }
    expect((await get('/topology/status')).body).toMatchObject({ version: 3, summary: '1 link removed' });
    // The miswired cable is now a missing one: the first finding is resolved, the new one waits.
    const resolved = events.list(0, Number.POSITIVE_INFINITY).filter((e) => /^drift resolved/.test(e.detail));
    expect(resolved.map((e) => e.subject)).toEqual(['edge1/3']);
  });

  it('a discovery that fails is said once, and the topology is kept', async () => {
    const failing = liveTopologyFor({ ...configFromEnv({}), fabricSource: 'infiniband' }, arDemo(), events, {
      discover: async () => Promise.reject(new Error('ibnetdiscover -p: umad_open_port failed')),
    });
    await failing.live.refresh();
    await failing.live.refresh();
    expect(failing.live.status()).toMatchObject({
      lastError: 'ibnetdiscover -p: umad_open_port failed',
      version: 1,
    });
    expect(
      events.list(0, Number.POSITIVE_INFINITY).filter((e) => /discovery failed/.test(e.detail)),
    ).toHaveLength(1);
    await failing.stop();
  });

  it('without FABSCOPE_EXPECTED_TOPOLOGY drift says it is not configured', async () => {
    const plain = liveTopologyFor(configFromEnv({}), arDemo(), undefined);
    expect(plain.live.drift({ limit: 10 })).toMatchObject({ configured: false, findings: [] });
    expect(plain.live.status()).toMatchObject({ live: false, changed: false, drift: { configured: false } });
    await plain.stop();
  });
});
