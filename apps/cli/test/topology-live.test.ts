import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '@fabscope/api';
import { ibsimNetFile } from '@fabscope/lab';
import { buildScenario, type Fabric, FabricBuilder } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIbsimDemo, startIbsimDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

/**
 * ar-demo at 4x SDR: ibsim gives a port its net file does not cable SDR only, and refuses (panics
 * on) a cable between ports with no speed in common, so a cable moved to a free port must be SDR.
 */
function arDemoSdr(): Fabric {
  const design = buildScenario('ar-demo');
  const b = new FabricBuilder(design.name, 'infiniband');
  for (const n of design.nodes) {
    b.addNode({ name: n.name, type: n.type, guid: n.guid, portCount: n.portCount, tier: n.tier, lid: n.lid });
  }
  for (const l of design.links) {
    b.connect(l.a.node, l.a.port, l.b.node, l.b.port, 10, l.kind, { widthSpeed: '4xSDR' });
  }
  return b.build();
}

interface EventRow {
  time: string;
  kind: string;
  subject: string;
  detail: string;
}

// The live topology against a real subnet manager: ibsim + OpenSM (ftree) shaped as ar-demo, read
// only with ibnetdiscover -p. Cables are pulled, plugged and moved with ibsim's console, as a
// technician would; the scheduled discovery is a minute away, so what is seen within seconds was
// discovered because a port changed state. The golden file is the lab's own net file (at 4x SDR:
// see arDemoSdr).
describe('live topology and drift on ibsim + OpenSM', () => {
  let demo: RunningIbsimDemo;
  let dir: string;
  const started = Date.now();
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
  const api = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${demo.apiUrl}/api/v1${path}`);
    return { status: response.status, body: await response.json() };
  };
  const eventsSince = async (fromMs: number): Promise<EventRow[]> =>
    (await api(`/events?from=${fromMs / 1000}`)).body.events as EventRow[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fabscope-topology-live-'));
    const golden = join(dir, 'ar-demo.net');
    const design = arDemoSdr();
    writeFileSync(golden, ibsimNetFile(design));
    const config = {
      ...configFromEnv({
        FABSCOPE_EXPECTED_TOPOLOGY: golden,
        FABSCOPE_DRIFT_STABLE_SECONDS: '3',
        FABSCOPE_DISCOVER_INTERVAL_MS: '60000',
        FABSCOPE_EVENTS_DIR: join(dir, 'events'),
      }),
      host: '127.0.0.1',
      port: 0,
    };
    demo = await startIbsimDemo({ config, design, routing: 'ftree', pumpIntervalMs: 50 });
    await eventually(async () => expect((await api('/health')).body.status).toBe('ok'), 30_000);
  }, 90_000);
  afterAll(async () => {
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts as designed: no drift, no change, the topology versioned', async () => {
    const status = (await api('/topology/status')).body;
    expect(status).toMatchObject({ live: true, intervalMs: 60_000, version: 1, changed: false });
    expect(status.drift).toEqual({ configured: true, findings: 0 });
    const drift = (await api('/topology/drift')).body;
    expect(drift).toMatchObject({ configured: true, total: 0, pending: 0, stableSeconds: 3 });
    expect(drift.expected).toEqual({ file: 'ar-demo.net', nodes: 8, links: 8 });
  });

  it('Unlink then Link of a cable: link-state and topology events within seconds, versions at each', async () => {
    const pulledAt = Date.now();
    await demo.lab.unlink('edge1', 3);
    const removed = await eventually(async () => {
      const events = await eventsSince(pulledAt - 1000);
      const topo = events.find((e) => e.kind === 'topology' && e.detail === 'link removed');
      expect(topo?.subject).toMatch(/^(edge1\/3--core1\/1|core1\/1--edge1\/3)$/);
      expect(events.some((e) => e.kind === 'link-state' && /^link down/.test(e.detail))).toBe(true);
      return topo as EventRow;
    }, 20_000);
    // Seen long before the scheduled discovery: a port changing state prompted it.
    expect(Date.parse(removed.time) - pulledAt).toBeLessThan(15_000);
    const health = (await api('/health')).body;
    expect(health.topology).toMatchObject({
      changed: true,
      summary: 'topology changed since loaded: 1 link removed',
    });

    const pluggedAt = Date.now();
    await demo.lab.link({ node: 'edge1', port: 3 }, { node: 'core1', port: 1 });
    await eventually(async () => {
      const events = await eventsSince(pluggedAt - 500);
      expect(events.some((e) => e.kind === 'topology' && /^link added/.test(e.detail))).toBe(true);
      expect(events.some((e) => e.kind === 'link-state' && /^link up/.test(e.detail))).toBe(true);
    }, 40_000);
    const status = (await api('/topology/status')).body;
    expect(status).toMatchObject({ version: 3, changed: false, summary: 'no change' });
    // The fabric as it was while the cable was out, and what changed since the start.
    const during = (await api(`/topology?time=${removed.time}`)).body;
    expect(during.links).toHaveLength(7);
    const changes = (await api(`/topology/changes?from=${started / 1000}`)).body;
    expect(changes.versions.map((v: { summary: string }) => v.summary)).toEqual([
      '1 link removed',
      '1 link added',
    ]);
  }, 90_000);

  it('a cable moved to another port is one miswired finding against the golden file', async () => {
    const movedAt = Date.now();
    await demo.lab.unlink('edge1', 3);
    await demo.lab.link({ node: 'edge1', port: 3 }, { node: 'core1', port: 5 });
    await eventually(async () => {
      const status = (await api('/topology/status')).body;
      expect(status.summary).toBe('1 link moved');
    }, 60_000);
    const drift = await eventually(async () => {
      const answer = (await api('/topology/drift')).body;
      expect(answer.total).toBe(1);
      return answer;
    }, 20_000);
    expect(drift.findings[0]).toMatchObject({
      kind: 'miswired',
      subject: 'edge1/3',
      detail: 'miswired: edge1/3 should be cabled to core1/1, is cabled to core1/5',
      present: true,
    });
    // Both cables named, whichever end discovery listed first.
    const ends = (c: { a: { node: string; port: number }; b: { node: string; port: number } }) =>
      [`${c.a.node}/${c.a.port}`, `${c.b.node}/${c.b.port}`].sort();
    expect(ends(drift.findings[0].expected)).toEqual(['core1/1', 'edge1/3']);
    expect(ends(drift.findings[0].actual)).toEqual(['core1/5', 'edge1/3']);
    expect(drift.comparedWith.source).toBe('discovered');
    const events = await eventsSince(movedAt - 500);
    expect(events.filter((e) => e.kind === 'topology').length).toBeGreaterThan(0);
  }, 90_000);
});
