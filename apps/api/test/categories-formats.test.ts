import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createHostCollector,
  opaErrors,
  type PortSample,
  parseOpapmaquery,
  parsePerfquery,
  perfqueryErrors,
  portExpositionChunks,
} from '@fabscope/collectors';
import { buildScenario, type Fabric, twoTierFatTree } from '@fabscope/topology';
import { afterAll, describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { nodeExporterMapping, type SeriesMapping } from '../src/store/series-mapping.ts';
import { buildTestApp } from './helper.ts';

// Each PM category from counters in the formats real fabrics print (opapmaquery, perfquery -x,
// sysfs) through the collectors' parsers and exposition, the embedded store and the API: two
// readings one second apart, so every rate is the difference of the two readings.

const opapmaquery = (
  port: number,
  v: (base: number) => number,
  lqi: number,
) => `Port Number             ${port}
    VL Select Mask      0x00000001
    Performance: Transmit
        Xmit Data                             ${Math.floor(v(1e8) / 131072)} MB (${v(1e8)} Flits)
        Xmit Pkts                          ${v(390625)}
        MC Xmt Pkts                              0
    Performance: Receive
        Rcv Data                              ${Math.floor(v(1e8) / 131072)} MB (${v(1e8)} Flits)
        Rcv Pkts                           ${v(390625)}
        MC Rcv Pkts                              0
    Errors: Signal Integrity
        Link Qual Indicator                      ${lqi} (Good)
        Uncorrectable Errors                     ${v(2)}
        Link Downed                              ${v(1)}
        Rcv Errors                               ${v(150)}
        Exc. Buffer Overrun                      ${v(4)}
        FM Config Errors                         ${v(1)}
        Local Link Integ Err                     ${v(12)}
        Link Error Recovery                      ${v(3)}
        Rcv Rmt Phys Err                         ${v(5)}
    Errors: Security
        Xmit Constraint                          ${v(6)}
        Rcv Constraint                           ${v(7)}
    Errors: Routing and Other Errors
        Rcv Sw Relay Err                         ${v(8)}
        Xmit Discards                            ${v(9)}
    Performance: Congestion
        Congestion Discards                      ${v(10)}
        Rcv FECN                                 ${v(3906)}
        Rcv BECN                                 ${v(0)}
        Mark FECN                                ${v(0)}
        Xmit Time Congestion                     ${v(0)}
        Xmit Wait                                ${v(0)}
    Performance: Bubbles
        Xmit Wasted BW                           ${v(5e6)}
        Xmit Wait Data                           ${v(5e6)}
        Rcv Bubble                               ${v(0)}
`;

const perfquery = (
  lid: number,
  port: number,
  v: (base: number) => number,
) => `# Port extended counters: Lid ${lid} port ${port} (CapMask: 0x5A00 CapMask2: 0x0000000)
PortSelect:......................${port}
CounterSelect:...................0x0000
PortXmitData:....................${v(25e7)}
PortRcvData:.....................${v(25e7)}
PortXmitPkts:....................${v(244140)}
PortRcvPkts:.....................${v(244140)}
PortUnicastXmitPkts:.............${v(244140)}
PortUnicastRcvPkts:..............${v(244140)}
PortMulticastXmitPkts:...........0
PortMulticastRcvPkts:............0
CounterSelect2:..................0x00000000
SymbolErrorCounter:..............${v(1000)}
LinkErrorRecoveryCounter:........${v(1)}
LinkDownedCounter:...............${v(0)}
PortRcvErrors:...................${v(20)}
PortRcvRemotePhysicalErrors:.....${v(2)}
PortRcvSwitchRelayErrors:........${v(30)}
PortXmitDiscards:................${v(4)}
PortXmitConstraintErrors:........${v(5)}
PortRcvConstraintErrors:.........${v(6)}
LocalLinkIntegrityErrors:........${v(7)}
ExcessiveBufferOverrunErrors:....${v(8)}
VL15Dropped:.....................${v(9)}
PortXmitWait:....................${v(0)}
QP1Dropped:......................0
`;

/** Reading 1 has each counter at 1000 × its per-second delta (a fabric up for a while); reading 2 one second later. */
const readings = [(base: number) => 1000 * base, (base: number) => 1001 * base];

function portSample(fabric: Fabric, node: string, port: number, counters: Partial<PortSample>): PortSample {
  const n = fabric.nodeByName.get(node);
  const link = fabric.links.find(
    (l) => (l.a.node === node && l.a.port === port) || (l.b.node === node && l.b.port === port),
  );
  if (!n || !link) throw new Error(`${node}/${port} is not cabled`);
  const far = link.a.node === node ? link.b : link.a;
  const farNode = fabric.nodeByName.get(far.node);
  return {
    nodeGuid: n.guid,
    nodeName: n.name,
    nodeType: n.type,
    portNumber: port,
    lid: n.lid,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    remote: { nodeGuid: farNode?.guid ?? '', nodeName: far.node, portNumber: far.port },
    transmitBytes: 0,
    receiveBytes: 0,
    transmitPackets: 0,
    receivePackets: 0,
    transmitWaitTicks: 0,
    ...counters,
  };
}

function exposition(fabric: Fabric, ports: PortSample[]): string {
  const chunks = [...portExpositionChunks({ fabric: fabric.name, fabricType: fabric.fabricType, ports })];
  return Buffer.concat(chunks).toString('utf8');
}

/** The API over an embedded store that reads `texts` one per scrape, a second apart; links after the last. */
async function linksFrom(
  fabric: Fabric,
  texts: string[],
  options: { mapping?: SeriesMapping; target?: string } = {},
) {
  let now = 1_800_000_000_000;
  let scrape = 0;
  const store = new EmbeddedStore({
    targets: [options.target ?? 'http://collector:9466/metrics'],
    now: () => now,
    mapping: options.mapping,
    fetch: (async () => new Response(texts[scrape++] ?? '')) as unknown as typeof fetch,
  });
  const linkIndex = new LinkIndex(fabric);
  const sampler = new Sampler(store, linkIndex, 1000, () => now);
  const app = await buildTestApp({ fabric, linkIndex, store, sampler });
  try {
    for (let i = 0; i < texts.length; i++) {
      await store.scrapeOnce();
      now += 1000;
    }
    now -= 1000;
    await sampler.sample();
    const res = await app.inject({ method: 'GET', url: '/api/v1/links?sort=id' });
    expect(res.statusCode).toBe(200);
    const links = res.json().links as {
      id: string;
      errors: Record<string, number | null>;
      categories: Record<string, number | null>;
    }[];
    return new Map(links.map((l) => [l.id, l]));
  } finally {
    await app.close();
    await store.close();
  }
}

describe('PM categories from opapmaquery output to the API (Omni-Path)', () => {
  it('integrity, congestion, bubble, security and routing from getportstatus at both ends of an ISL', async () => {
    const fabric = buildScenario('ar-demo');
    const texts = readings.map((v) => {
      const samples = [
        ['edge1', 4],
        ['core2', 1],
      ].map(([node, port]) => {
        const [status] = parseOpapmaquery(opapmaquery(port as number, v, 3));
        if (!status) throw new Error('no port');
        // As omnipath-source.ts: flits × 8 as bytes, the error counters by their printed names.
        return portSample(fabric, node as string, port as number, {
          transmitBytes: Number(status.transmitBytes),
          receiveBytes: Number(status.receiveBytes),
          transmitPackets: Number(status.transmitPackets),
          receivePackets: Number(status.receivePackets),
          transmitWaitTicks: Number(status.transmitWait),
          errors: opaErrors(status),
        });
      });
      return exposition(fabric, samples);
    });
    const links = await linksFrom(fabric, texts);
    const d = links.get('edge1/4->core2/1');
    expect(d?.errors).toMatchObject({ receiveErrors: 150, linkQualityIndicator: 3, congestionDiscards: 10 });
    // Integrity: RcvErrors 150×100 + ExcessiveBufferOverrun 4×100 + LinkDowned 1×25 + Uncorrectable
    // 2×100 + FMConfig 1×100 + LQI (5−3)×40, LocalLinkIntegrity and LinkErrorRecovery × 0 = 15,805.
    expect(d?.categories.integrity).toBeCloseTo(158.05, 6);
    // Congestion: CongDiscards 10×100 + RcvFECN 3906 of 390,625 packets (1 %) × 5 = 1005.
    expect(d?.categories.congestion).toBeCloseTo(10.05, 3);
    // Bubble: 1e7 idle flit times of 1.1e8 sent = 9.09 %, × 10.
    expect(d?.categories.bubble).toBeCloseTo(0.909, 3);
    expect(d?.categories.security).toBeCloseTo(1.3, 6); // (6 sent + 7 received) / 10
    expect(d?.categories.routing).toBeCloseTo(0.08, 6); // 8 relay errors / 100
    expect(d?.categories.smaCongestion).toBeNull(); // no VL15 counter on Omni-Path: unknown
    // A link nobody reported: every category unknown, not 0.
    expect(links.get('edge1/3->core1/1')?.categories.integrity).toBeNull();
  });
});

describe('PM categories from perfquery -x output to the API (InfiniBand)', () => {
  it('SymbolErrorCounter stands for the link quality; VL15Dropped is SMA congestion', async () => {
    const fabric = twoTierFatTree({
      name: 'ib',
      fabricType: 'infiniband',
      radix: 8,
      edgeCount: 2,
      coreCount: 2,
      hostsPerEdge: 2,
    });
    const isl = fabric.links.find((l) => l.kind === 'isl');
    if (!isl) throw new Error('no ISL');
    const texts = readings.map((v) =>
      exposition(
        fabric,
        [isl.a, isl.b].map((end) => {
          const [port] = parsePerfquery(perfquery(1, end.port, v));
          if (!port) throw new Error('no port');
          return portSample(fabric, end.node, end.port, {
            transmitBytes: Number(port.transmitBytes),
            receiveBytes: Number(port.receiveBytes),
            transmitPackets: Number(port.transmitPackets),
            receivePackets: Number(port.receivePackets),
            transmitWaitTicks: Number(port.transmitWait),
            errors: perfqueryErrors(port),
          });
        }),
      ),
    );
    const links = await linksFrom(fabric, texts);
    const d = links.get(`${isl.a.node}/${isl.a.port}->${isl.b.node}/${isl.b.port}`);
    // Integrity: RcvErrors 20×100 + EBO 8×100 + SymbolErrorCounter 1000×1 (fabscope's InfiniBand
    // weight) + LinkErrorRecovery and LocalLinkIntegrity × 0 = 3800.
    expect(d?.categories.integrity).toBeCloseTo(38, 6);
    expect(d?.categories.smaCongestion).toBeCloseTo(9, 6); // VL15Dropped 9/s × 100
    expect(d?.categories.security).toBeCloseTo(1.1, 6); // (5 + 6) / 10
    expect(d?.categories.routing).toBeCloseTo(0.3, 6);
    // perfquery gives XmitWait ticks but not their length, and InfiniBand no FECN/BECN counters:
    // the congestion category is unknown, not 0.
    expect(d?.categories.congestion).toBeNull();
    expect(d?.categories.bubble).toBeNull(); // InfiniBand has no bubble counters
    expect(d?.errors.fmConfigErrors).toBeNull();
  });
});

describe('PM categories from sysfs (node_exporter names) to the API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a host's receive errors, constraint errors and VL15 drops rank the direction into it", async () => {
    const fabric = twoTierFatTree({
      name: 'ib',
      fabricType: 'infiniband',
      radix: 8,
      edgeCount: 2,
      coreCount: 2,
      hostsPerEdge: 2,
    });
    const host = fabric.nodes.find((n) => n.type === 'host');
    if (!host) throw new Error('no host');
    const device = join(dir, 'class/infiniband/mlx5_0');
    const port = join(device, 'ports/1');
    mkdirSync(join(port, 'counters'), { recursive: true });
    writeFileSync(join(device, 'node_guid'), `${host.guid.slice(2).match(/.{4}/g)?.join(':')}\n`);
    writeFileSync(join(port, 'rate'), '100 Gb/sec (4X EDR)\n');
    writeFileSync(join(port, 'state'), '4: ACTIVE\n');
    writeFileSync(join(port, 'phys_state'), '5: LinkUp\n');
    writeFileSync(join(port, 'link_layer'), 'InfiniBand\n');
    const texts: string[] = [];
    for (const v of readings) {
      const counters: Record<string, number> = {
        port_xmit_data: v(25e7),
        port_rcv_data: v(25e7),
        port_xmit_packets: v(1000),
        port_rcv_packets: v(1000),
        port_xmit_wait: 0,
        symbol_error: v(0),
        link_error_recovery: 0,
        link_downed: 0,
        port_rcv_errors: v(3),
        port_xmit_discards: 0,
        port_rcv_remote_physical_errors: 0,
        port_rcv_switch_relay_errors: 0,
        port_xmit_constraint_errors: 0,
        port_rcv_constraint_errors: v(12),
        local_link_integrity_errors: 0,
        excessive_buffer_overrun_errors: 0,
        VL15_dropped: v(2),
      };
      for (const [name, value] of Object.entries(counters))
        writeFileSync(join(port, 'counters', name), `${value}\n`);
      texts.push(await createHostCollector({ sysfs: dir, procfs: join(dir, 'no-proc') }).scrape());
    }
    const mapping = nodeExporterMapping({
      guidOfNode: (name) => fabric.nodeByName.get(name)?.guid,
      hasGuid: (guid) => fabric.nodes.some((n) => n.guid === guid),
    });
    const links = await linksFrom(fabric, texts, { mapping, target: `http://${host.name}:9100/metrics` });
    const into = [...links.values()].find((l) => l.id.endsWith(`->${host.name}/1`));
    expect(into?.categories.integrity).toBeCloseTo(3, 6); // 3 PortRcvErrors/s × 100 / 100
    expect(into?.categories.security).toBeCloseTo(1.2, 6); // 12 PortRcvConstraintErrors/s / 10
    expect(into?.categories.smaCongestion).toBeCloseTo(2, 6); // 2 VL15Dropped/s × 100 / 100
  });
});
