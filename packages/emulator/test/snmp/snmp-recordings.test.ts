import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Snmpsim, snmpbulkwalk, startSnmpsim } from '@fabscope/test-support';
import { type Fabric, FabricBuilder, fatTreeRouting, generatedGuid } from '@fabscope/topology';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  carriedOn,
  createEmulator,
  type PortTraffic,
  switchRecording,
  trafficBetween,
  trafficChanged,
  writeRecordings,
} from '../../src/index.ts';

const run = promisify(execFile);
const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const IF_HC_OUT_OCTETS = '1.3.6.1.2.1.31.1.1.1.10';
const LLDP_REM_SYS_NAME = '1.0.8802.1.1.2.1.4.1.1.9';
const LLDP_REM_PORT_ID = '1.0.8802.1.1.2.1.4.1.1.7';

/** 2 leaves × 2 hosts, 2 spines, 100 GbE: leaf ports 1–2 hosts, 3–4 spines; spine port l faces leaf l. */
function leafSpine(): Fabric {
  const b = new FabricBuilder('rec', 'ethernet');
  for (let h = 1; h <= 4; h++)
    b.addNode({ name: `host${h}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  for (let l = 1; l <= 2; l++)
    b.addNode({ name: `leaf${l}`, type: 'switch', guid: generatedGuid(1, l), portCount: 6, tier: 1 });
  for (let s = 1; s <= 2; s++)
    b.addNode({ name: `spine${s}`, type: 'switch', guid: generatedGuid(1, 10 + s), portCount: 4, tier: 2 });
  for (let l = 1; l <= 2; l++) {
    for (let h = 1; h <= 2; h++) b.connect(`host${(l - 1) * 2 + h}`, 1, `leaf${l}`, h, 100);
    for (let s = 1; s <= 2; s++) b.connect(`leaf${l}`, 2 + s, `spine${s}`, l, 100);
  }
  return b.build();
}

const fabric = leafSpine();
let dir: string;
let sim: Snmpsim;
let traffic: Map<string, PortTraffic>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabscope-snmprec-'));
  const startMs = Date.now() - 2000;
  const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: startMs });
  emulator.startFlows({
    pattern: 'pairs',
    pairs: [
      ['host1', 'host3'],
      ['host2', 'host4'],
      ['host4', 'host1'],
    ],
  });
  emulator.advance(1000);
  const before = emulator.portCounters();
  emulator.advance(1000);
  traffic = trafficBetween(before, emulator.portCounters());
  const names = writeRecordings(fabric, dir, traffic, startMs + 2000, startMs);
  sim = await startSnmpsim(Object.fromEntries(names.map((n) => [n, join(dir, `${n}.snmprec`)])), 'leaf1');
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** sysUpTime and one port's ifHCOutOctets in one PDU: the agent's clock and the counter at one instant. */
async function upTimeAndOctets(community: string, port: number): Promise<[number, bigint]> {
  const { stdout } = await run('snmpget', [
    '-v2c',
    '-c',
    community,
    '-Oqvt',
    `127.0.0.1:${sim.port}`,
    SYS_UP_TIME,
    `${IF_HC_OUT_OCTETS}.${port}`,
  ]);
  const [ticks, octets] = stdout.trim().split('\n');
  return [Number(ticks), BigInt(octets as string)];
}

describe("the emulator's switches as snmpsim recordings", () => {
  it('serve LLDP neighbours that are exactly the emulated cabling', async () => {
    for (const node of fabric.nodes.filter((n) => n.type === 'switch')) {
      const names = await snmpbulkwalk(sim.port, node.name, LLDP_REM_SYS_NAME);
      const ports = await snmpbulkwalk(sim.port, node.name, LLDP_REM_PORT_ID);
      const seen = [...names].map(([oid, far]) => {
        const local = oid.split('.').at(-2);
        return `${node.name}/${local} ${far} ${ports.get(oid.replace(/\.9\.0\./, '.7.0.'))}`;
      });
      const cabled = node.ports.flatMap((p) => {
        const link = p && p.link >= 0 ? fabric.links[p.link] : undefined;
        if (!p || !link) return [];
        const far = link.a.node === node.name && link.a.port === p.number ? link.b : link.a;
        const farName = far.node.startsWith('host') ? `eth${far.port - 1}` : `Ethernet${far.port}`;
        return [`${node.name}/${p.number} ${far.node} ${farName}`];
      });
      expect(seen.sort()).toEqual(cabled.sort());
    }
  });

  it("count every port's octets at the emulator's rate, within 1 % by the agent's own clock", async () => {
    let busy = 0;
    for (const [node, port] of [
      ['leaf1', 3],
      ['leaf1', 4],
      ['spine1', 2],
      ['spine2', 2],
      ['leaf2', 1],
    ] as const) {
      const expected = traffic.get(`${node}/${port}`)?.outOctetsRate ?? Number.NaN;
      const [t0, c0] = await upTimeAndOctets(node, port);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const [t1, c1] = await upTimeAndOctets(node, port);
      const rate = Number(c1 - c0) / ((t1 - t0) / 100);
      if (expected > 0) busy++;
      expect(Math.abs(rate - expected), `${node}/${port}`).toBeLessThanOrEqual(expected * 0.01 + 1);
    }
    expect(busy).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('write each switch sorted by OID, as snmpsim searches its file', () => {
    const text = readFileSync(join(dir, 'leaf1.snmprec'), 'utf8');
    const oids = text
      .trim()
      .split('\n')
      .map((l) => (l.split('|')[0] as string).split('.').map(Number));
    const sorted = [...oids].sort((a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++)
        if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
      return a.length - b.length;
    });
    expect(oids).toEqual(sorted);
    const node = fabric.nodeByName.get('spine1');
    if (!node) throw new Error('no spine1');
    const still = switchRecording({ fabric, node, traffic: () => undefined, atMs: 10_000, bootMs: 0 });
    expect(still).toContain('1.3.6.1.2.1.31.1.1.1.10.1|70|0\n');
    expect(still).toContain('1.3.6.1.2.1.2.2.1.8.1|2|2\n');
  });
});

const portTraffic = fc.record({
  outOctets: fc.bigInt({ min: 0n, max: 2n ** 60n }),
  inOctets: fc.bigInt({ min: 0n, max: 2n ** 60n }),
  outPackets: fc.bigInt({ min: 0n, max: 2n ** 50n }),
  inPackets: fc.bigInt({ min: 0n, max: 2n ** 50n }),
  outOctetsRate: fc.double({ min: 0, max: 5e10, noNaN: true }),
  inOctetsRate: fc.double({ min: 0, max: 5e10, noNaN: true }),
  outPacketsRate: fc.double({ min: 0, max: 1e8, noNaN: true }),
  inPacketsRate: fc.double({ min: 0, max: 1e8, noNaN: true }),
  inErrors: fc.constant(0n),
  outDiscards: fc.constant(0n),
  up: fc.boolean(),
});

describe('rewriting the recordings', () => {
  it('never carries a counter back, whatever the old and new rates', () => {
    fc.assert(
      fc.property(portTraffic, portTraffic, fc.integer({ min: 0, max: 600_000 }), (old, next, ms) => {
        const carried = carriedOn(new Map([['a/1', old]]), 0, new Map([['a/1', next]]), ms)?.get('a/1');
        const reached = old.outOctets + BigInt(Math.round((old.outOctetsRate * ms) / 1000));
        expect(carried?.outOctets).toBe(reached > next.outOctets ? reached : next.outOctets);
        expect(carried?.outOctetsRate).toBe(next.outOctetsRate);
      }),
    );
  });

  it('is due when a rate moves past the tolerance or a link changes state, not otherwise', () => {
    const base = traffic.get('leaf1/3') as PortTraffic;
    const with_ = (t: Partial<PortTraffic>) => new Map([['leaf1/3', { ...base, ...t }]]);
    const written = with_({ outOctetsRate: 1e9 });
    expect(trafficChanged(null, written, 0.001)).toBe(true);
    expect(trafficChanged(written, with_({ outOctetsRate: 1e9 * 1.0005 }), 0.001)).toBe(false);
    expect(trafficChanged(written, with_({ outOctetsRate: 1e9 * 1.01 }), 0.001)).toBe(true);
    expect(trafficChanged(written, with_({ outOctetsRate: 1e9, up: !base.up }), 0.001)).toBe(true);
  });
});
