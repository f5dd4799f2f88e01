import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '@fabscope/api';
import { parseSnmpTargets } from '@fabscope/collectors';
import {
  createEmulator,
  type PortTraffic,
  recordingTargets,
  trafficBetween,
  writeRecordings,
} from '@fabscope/emulator';
import { type Snmpsim, startSnmpsim } from '@fabscope/test-support';
import { type Fabric, FabricBuilder, fatTreeRouting, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSnmp } from '../src/serve-snmp.ts';
import { eventually } from './eventually.ts';

interface LinkState {
  id: string;
  kind: string;
  from: { node: string; port: number };
  bytesPerSecond: number | null;
  utilization: number | null;
  stale: boolean;
}

/** 3 leaves × 2 hosts, 2 spines, 100 GbE: leaf ports 1–2 face hosts, 3–4 the spines; spine port l faces leaf l. */
function smallLeafSpine(): Fabric {
  const b = new FabricBuilder('snmp-leafspine', 'ethernet');
  for (let h = 1; h <= 6; h++)
    b.addNode({ name: `host${h}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  for (let l = 1; l <= 3; l++)
    b.addNode({ name: `leaf${l}`, type: 'switch', guid: generatedGuid(1, l), portCount: 8, tier: 1 });
  for (let s = 1; s <= 2; s++)
    b.addNode({ name: `spine${s}`, type: 'switch', guid: generatedGuid(1, 10 + s), portCount: 8, tier: 2 });
  for (let l = 1; l <= 3; l++) {
    for (let h = 1; h <= 2; h++) b.connect(`host${(l - 1) * 2 + h}`, 1, `leaf${l}`, h, 100);
    for (let s = 1; s <= 2; s++) b.connect(`leaf${l}`, 2 + s, `spine${s}`, l, 100);
  }
  return b.build();
}

const design = smallLeafSpine();
let sim: Snmpsim;
let dir: string;
let traffic: Map<string, PortTraffic>;
let running: Awaited<ReturnType<typeof serveSnmp>>;
const told: string[] = [];
/** Ticks the rates are averaged over. */
const TICKS = 6;
let targets: ReturnType<typeof parseSnmpTargets>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabscope-serve-snmp-'));
  // The emulator's clock ends at the wall clock's now: the recordings' counters go on from there in real time.
  const startMs = Date.now() - 2000;
  const emulator = createEmulator({ fabric: design, tables: fatTreeRouting(design), startTimeMs: startMs });
  emulator.startFlows({
    pattern: 'pairs',
    pairs: [
      ['host1', 'host3'],
      ['host2', 'host5'],
      ['host4', 'host6'],
      ['host6', 'host1'],
    ],
  });
  emulator.advance(1000);
  const before = emulator.portCounters();
  emulator.advance(1000);
  const after = emulator.portCounters();
  traffic = trafficBetween(before, after);
  const switches = writeRecordings(design, dir, traffic, after.timeMs, startMs);
  sim = await startSnmpsim(Object.fromEntries(switches.map((s) => [s, join(dir, `${s}.snmprec`)])), 'leaf1');
  targets = parseSnmpTargets(recordingTargets(design, `127.0.0.1:${sim.port}`));
  running = await serveSnmp(
    { ...configFromEnv({}), host: '127.0.0.1', port: 0, sampleIntervalMs: 4000 },
    { targets, concurrency: 1, log: (line) => told.push(line) },
  );
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const links = async (query: string) => {
  const answer = await fetch(`${running.api.url}/api/v1/links?${query}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { links: LinkState[] }).links;
};

describe('fabscope serve with FABSCOPE_FABRIC=snmp, on snmpsim serving the emulator’s recordings', () => {
  it('discovers exactly the emulated leaf–spine from LLDP: switches, ports, speeds, ISLs and hosts', () => {
    const cables = (f: Fabric) => f.links.map((l) => `${l.id} ${l.kind} ${l.rateGbps}`).sort();
    expect(cables(running.fabric)).toEqual(cables(design));
    const nodes = (f: Fabric) => f.nodes.map((n) => `${n.name} ${n.type} ${n.tier} ${n.portCount}`).sort();
    expect(nodes(running.fabric)).toEqual(nodes(design));
  });

  it("ranks the ISLs by utilization from the SNMP counters, within 5 % of the emulator's rates over six ticks", async () => {
    const isls = await eventually(async () => {
      const rows = await links('kind=isl&sort=utilization&order=desc&limit=100');
      expect(rows).toHaveLength(12);
      for (const r of rows) expect(r.bytesPerSecond).not.toBeNull();
      return rows;
    }, 60_000);
    const utilizations = isls.map((r) => r.utilization as number);
    expect(utilizations).toEqual([...utilizations].sort((a, b) => b - a));
    expect(utilizations[0]).toBeGreaterThan(0.05);
    // snmpsim answers a walk over a second or more and a read is stamped at its midpoint, not at each agent's
    // answer: measured here 0.03–1.5 % off over six warm ticks (4–8 % with the two cold ones). The recordings themselves match the emulator within 1 %
    // by the agent's own clock (packages/emulator/test/snmp/snmp-recordings.test.ts).
    const sums = new Map<string, number>();
    const instants = new Set<string>();
    const seen = new Set<string>();
    await eventually(
      async () => {
        const answer = await fetch(`${running.api.url}/api/v1/links?kind=isl&limit=100`);
        const body = (await answer.json()) as { time: string; links: LinkState[] };
        if (!seen.has(body.time) && body.links.every((r) => r.bytesPerSecond !== null)) {
          seen.add(body.time);
          // The first ticks after the start rate reads of agents still cold (indexing their files): not averaged.
          if (seen.size > 2) instants.add(body.time);
          if (seen.size > 2)
            for (const r of body.links) sums.set(r.id, (sums.get(r.id) ?? 0) + (r.bytesPerSecond as number));
        }
        expect(instants.size).toBeGreaterThanOrEqual(TICKS);
      },
      90_000,
      500,
    );
    let busy = 0;
    for (const r of isls) {
      const expected = traffic.get(`${r.from.node}/${r.from.port}`)?.outOctetsRate ?? Number.NaN;
      if (expected > 0) busy++;
      const mean = (sums.get(r.id) as number) / instants.size;
      expect(Math.abs(mean - expected), r.id).toBeLessThanOrEqual(expected * 0.05 + 1);
    }
    expect(busy).toBeGreaterThanOrEqual(4);
  }, 150_000);

  it("leaves a silent agent's ports unknown, says why; its ISLs stay measured at the spines' ends", async () => {
    const known = (r: LinkState) => r.utilization !== null;
    const atLeaf3 = (r: LinkState) => r.id.includes('leaf3/');
    await eventually(async () => expect((await links('limit=100')).every(known)).toBe(true), 60_000);
    // snmpsim does not answer a community it has no recording for: leaf3's agent falls silent.
    const leaf3 = targets.find((t) => t.credentials.version === '2c' && t.credentials.community === 'leaf3');
    if (!leaf3) throw new Error('no leaf3 target');
    leaf3.credentials = { version: '2c', community: 'unrecorded' };
    const rows = await eventually(async () => {
      const now = await links('limit=100');
      // Its host cables are read at leaf3 alone: unknown, never a zero.
      const hostCables = now.filter((r) => r.kind === 'host' && atLeaf3(r));
      expect(hostCables).toHaveLength(4);
      for (const r of hostCables) {
        expect(r.utilization, r.id).toBeNull();
        expect(r.stale).toBe(true);
      }
      return now;
    }, 60_000);
    // Both directions of its ISLs are counted at the spines too (their transmit and receive).
    expect(rows.filter((r) => r.kind === 'isl' && atLeaf3(r)).every(known)).toBe(true);
    expect(
      rows.filter((r) => !atLeaf3(r) && !r.id.includes('host5') && !r.id.includes('host6')).every(known),
    ).toBe(true);
    expect(told.some((l) => l.includes(leaf3.label) && /timeout/.test(l))).toBe(true);
  }, 180_000);
});
